// The refusals of DESIGN §17 as the MCP tools say them, on a scripted service (the tools and the MCP
// client are the real ones): a refused quote is the answer of send_money's and withdraw's first call,
// with no question to the user and no confirmation made; a limit is said with its window, what is
// left and when more can be sent (Retry-After as a time); get_limits says what is left of each.
import { describe, expect, it } from 'vitest';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createPeerpayClient, PeerpayError } from '@peerpay/client';
import { complianceNextStep, createPeerpayMcpServer, MemoryConfirmationStore, retryTime, type ConfirmationStore } from '@peerpay/mcp';
import { callTool, ElicitationScript, mcpClient } from './support.js';

const problem = (status: number, code: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ type: 'about:blank', title: code, status, detail: `refused: ${code}`, code, ...extra }), {
    status,
    headers: { 'content-type': 'application/problem+json', ...headers },
  });

const LIMITS = {
  limits: [
    { rail: 'fiat', currency: 'USD', window: 'day', limit: '1000.00', used: '990.00', remaining: '10.00' },
    { rail: 'fiat', currency: 'USD', window: 'month', limit: '5000.00', used: '990.00', remaining: '4010.00' },
    { rail: 'stablecoin', currency: 'USDC', window: 'day', limit: '1000', used: '0', remaining: '1000' },
  ],
};

/** A service whose quotes all answer `refusal`; counts the calls that would move money. */
function refusingService(refusal: () => Response) {
  const moved: string[] = [];
  const fetchImpl = (async (input: RequestInfo | URL) => {
    const url = new URL(String(input));
    if (url.pathname === '/agents/lookup') return Response.json({ found: true, handle: 'PA-BOB00001', firstName: 'Bob' });
    if (url.pathname === '/account/limits') return Response.json(LIMITS);
    if (url.pathname.endsWith('/quote')) return refusal();
    moved.push(url.pathname);
    return problem(500, 'internal_error');
  }) as typeof fetch;
  return { fetchImpl, moved };
}

async function connect(refusal: () => Response, elicitation: boolean) {
  const service = refusingService(refusal);
  const api = createPeerpayClient({ baseUrl: 'http://peerpay.test', apiKey: 'pa_live_x', fetch: service.fetchImpl, maxRetries: 2 });
  const store = new MemoryConfirmationStore();
  let made = 0;
  const confirmations: ConfirmationStore = {
    create: (input) => {
      made++;
      return store.create(input);
    },
    claim: (input) => store.claim(input),
    release: (input) => store.release(input),
  };
  const server = createPeerpayMcpServer({ api: () => api, confirmations, owner: () => 'PA-ALICE001' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const script = elicitation ? new ElicitationScript() : undefined;
  return { client: await mcpClient(clientSide, script), script, moved: service.moved, made: () => made };
}

const CALLS = [
  ['send_money', { to: 'PA-BOB00001', amount: '20', currency: 'USD' }],
  ['send_money', { to: 'PA-BOB00001', amount: '20', currency: 'USDC' }],
  ['withdraw', { amount: '20', currency: 'USDC', address: `0x${'22'.repeat(20)}` }],
] as const;

describe('MCP refusals before confirmation (scripted service)', () => {
  for (const [code, status, headers, says] of [
    ['account_frozen', 403, {}, /frozen.*Nothing was moved.*contact peerpay support/s],
    // A quote for a listed address refuses without freezing the account (a withdrawal to it freezes it).
    [
      'destination_sanctioned',
      403,
      {},
      /sanctions list: peerpay does not send to it, and nothing was sent\. .*do not retry to this address/,
    ],
    [
      'screening_unavailable',
      503,
      { 'retry-after': '3600' },
      /could not check the address .* Make the same call again after \d{4}-\d\d-\d\d \d\d:\d\d UTC/,
    ],
  ] as const) {
    it(`${code}: the first call answers it; nobody is asked, no confirmation is made, nothing moves`, async () => {
      for (const elicitation of [true, false]) {
        const { client, script, moved, made } = await connect(() => problem(status, code, {}, headers), elicitation);
        for (const [tool, args] of CALLS) {
          const answer = await callTool(client, tool, args);
          expect(answer.isError, `${tool} ${answer.text}`).toBe(true);
          expect(answer.structuredContent).toMatchObject({ code, nextStep: expect.stringMatching(says) });
          expect(answer.text).toMatch(says);
        }
        expect(script?.asked ?? []).toEqual([]);
        expect(made()).toBe(0);
        expect(moved).toEqual([]);
        await client.close();
      }
    });
  }

  it('limit_exceeded: says the limit, its window, what is left and from when, in the currency of the call', async () => {
    const before = Date.now();
    const refusal = () =>
      problem(429, 'limit_exceeded', { limit: '1000.00', window: 'day', remaining: '10.00' }, { 'retry-after': String(5 * 3600) });
    const { client, script, made } = await connect(refusal, true);
    const answer = await callTool(client, 'send_money', CALLS[0][1]);
    const when = retryTime(5 * 3600, before);
    expect(answer.structuredContent).toMatchObject({
      code: 'limit_exceeded',
      limit: '1000.00',
      window: 'day',
      remaining: '10.00',
      retryAfterSeconds: 5 * 3600,
    });
    expect(Date.parse(answer.structuredContent.retryAt) - before).toBeGreaterThanOrEqual(5 * 3600 * 1000);
    expect(answer.structuredContent.nextStep).toMatch(
      /^The limit on sending USD is 1000\.00 USD in any 24 hours, and 10\.00 USD of it is left\. More can be sent from (\S+ \S+) UTC \(in about 5 hours\)\. Nothing was moved\. Tell the user, and offer to send at most 10\.00 USD now, or the rest after that time \(get_limits shows every limit\)\.$/,
    );
    expect(answer.structuredContent.nextStep).toContain(when.at.slice(0, 13));
    const limitOf = async (remaining: string, headers: Record<string, string>) =>
      (
        await callTool(
          (await connect(() => problem(429, 'limit_exceeded', { limit: '5000', window: 'month', remaining }, headers), false)).client,
          'withdraw',
          CALLS[2][1],
        )
      ).structuredContent.nextStep as string;
    expect(await limitOf('0', { 'retry-after': String(3 * 86400) })).toMatch(
      /5000 USDC in any 30 days, and nothing of it is left\. More can be sent from .* \(in about 3 days\)\. Nothing was moved\. Tell the user, and offer to try again after that time/,
    );
    // Without Retry-After waiting does not help: the amount alone is over the limit.
    expect(await limitOf('40', {})).toMatch(
      /and 40 USDC of it is left\. The amount alone is more than that, so waiting will not help\. Nothing was moved\. Tell the user, and offer to send at most 40 USDC now \(/,
    );
    expect(await limitOf('0', {})).toMatch(/Tell the user, and say that only peerpay support can raise the limit/);
    expect(script!.asked).toEqual([]);
    expect(made()).toBe(0);
  });

  it('destination_sanctioned says the account is frozen only when the refusal froze it (a withdrawal, not a quote)', () => {
    const refusal = (operationId: 'quoteWithdrawal' | 'createWithdrawal') =>
      new PeerpayError(operationId, {
        type: 'about:blank',
        title: 'Sanctioned',
        status: 403,
        detail: 'listed',
        code: 'destination_sanctioned',
      });
    expect(complianceNextStep(refusal('createWithdrawal'))).toMatch(
      /nothing was sent, and peerpay has frozen the user’s account for review/,
    );
    expect(complianceNextStep(refusal('quoteWithdrawal'))).not.toMatch(/has frozen/);
  });

  it('get_limits says what is left of each limit', async () => {
    const { client } = await connect(() => problem(500, 'internal_error'), false);
    const answer = await callTool(client, 'get_limits', {});
    expect(answer.structuredContent).toEqual(LIMITS);
    expect(answer.text).toContain(
      'USD (fiat): 10.00 of 1000.00 left in any 24 hours (990.00 used), 4010.00 of 5000.00 left in any 30 days (990.00 used); USDC (stablecoin): 1000 of 1000 left in any 24 hours (0 used).',
    );
  });

  it('puts a Retry-After time in words', () => {
    const now = Date.parse('2026-11-26T14:00:00Z');
    expect(retryTime(30, now)).toEqual({ at: '2026-11-26 14:00 UTC', inWords: '30 seconds' });
    expect(retryTime(45 * 60, now)).toEqual({ at: '2026-11-26 14:45 UTC', inWords: '45 minutes' });
    expect(retryTime(20 * 3600, now)).toEqual({ at: '2026-11-27 10:00 UTC', inWords: '20 hours' });
    expect(retryTime(6 * 86400, now)).toEqual({ at: '2026-12-02 14:00 UTC', inWords: '6 days' });
  });
});
