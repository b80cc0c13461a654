// DESIGN §17 through the MCP tools, against a real service: when a freeze, a sending limit or
// sanctions screening would refuse a movement, send_money and withdraw answer the refusal on their
// first call, in the user's terms, and neither ask the user (no elicitation is sent) nor make a
// confirmation (none is recorded); nothing moves. get_limits shows the limits before trying.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { accountIdOf } from '../helpers/stablecoin.js';
import { freshAddress } from '../helpers/withdrawals.js';
import { callTool, ElicitationScript, httpTransport, mcpClient, startClientsServer, type ClientsServer } from './support.js';

const OPERATOR_TOKEN = 'operator-token-for-client-tests-0123456789';
const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };

let env: ClientsServer;
const clients: Client[] = [];

beforeAll(async () => {
  env = await startClientsServer({ OPERATOR_TOKEN });
});
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await env?.close();
});

type User = Awaited<ReturnType<ClientsServer['user']>>;

/** Two MCP clients of the user: one that asks by elicitation (scripted to say yes), one without it. */
async function connectBoth(user: User): Promise<{ asking: Client; script: ElicitationScript; plain: Client }> {
  const script = new ElicitationScript();
  const asking = await mcpClient(httpTransport(env.url, user.key), script);
  const plain = await mcpClient(httpTransport(env.url, user.key));
  clients.push(asking, plain);
  return { asking, script, plain };
}

async function confirmationsOf(user: User): Promise<number> {
  const accountId = await accountIdOf(env.server, user);
  const rows = await env.server.deps.db.selectFrom('mcp_confirmations').select('id_hash').where('account_id', '=', accountId).execute();
  return rows.length;
}

async function admin(method: string, path: string, body: unknown) {
  const answer = await env.server.request(method, path, { body, headers: operator });
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${answer.text}`);
  return answer.body;
}

/** Calls the tool through both clients: each must refuse with `code` on the first call. */
async function refusedByBoth(user: User, tool: string, args: Record<string, unknown>, code: string) {
  const { asking, script, plain } = await connectBoth(user);
  const results = [];
  for (const client of [asking, plain]) {
    const result = await callTool(client, tool, args);
    expect(result.isError, result.text).toBe(true);
    expect(result.structuredContent).toMatchObject({ code });
    expect(result.structuredContent.status).not.toBe('confirmation_required');
    expect(result.structuredContent.confirmationId).toBeUndefined();
    results.push(result);
  }
  expect(script.asked).toEqual([]);
  expect(await confirmationsOf(user)).toBe(0);
  return results;
}

describe('MCP refusals of DESIGN §17, before any confirmation', () => {
  it('a frozen account: send_money (both rails) and withdraw refuse at once; nothing is asked, recorded or moved', async () => {
    const alice = await env.user();
    const bob = await env.user();
    await env.fund(alice, 50_000_000n);
    await env.setUpCard(alice);
    await admin('POST', `/admin/accounts/${await accountIdOf(env.server, alice)}/freeze`, { note: 'review', scope: 'all' });

    const [coin] = await refusedByBoth(alice, 'send_money', { to: bob.handle, amount: '10', currency: 'USDC' }, 'account_frozen');
    expect(coin!.structuredContent.nextStep).toMatch(/frozen.*Nothing was moved.*contact peerpay support/is);
    await refusedByBoth(alice, 'send_money', { to: bob.email, amount: '10', currency: 'USD' }, 'account_frozen');
    await refusedByBoth(alice, 'withdraw', { amount: '5', currency: 'USDC', address: freshAddress() }, 'account_frozen');
    expect((await alice.api.getStablecoinBalance()).USDC).toBe('50.000000');
    expect((await bob.api.getStablecoinBalance()).USDC).toBe('0.000000');
    expect((await alice.api.listTransfers()).transfers).toEqual([]);
  });

  it('a limit: get_limits shows it; a send over it refuses at once with the limit, the window, what remains and when', async () => {
    const alice = await env.user();
    const bob = await env.user();
    await env.fund(alice, 50_000_000n);
    await admin('PUT', `/admin/accounts/${await accountIdOf(env.server, alice)}/limits`, { currency: 'USDC', day: '12', note: 'test' });
    const { plain } = await connectBoth(alice);
    const limits = await callTool(plain, 'get_limits', {});
    expect(limits.isError, limits.text).toBeFalsy();
    expect(limits.structuredContent.limits).toContainEqual(
      expect.objectContaining({ rail: 'stablecoin', currency: 'USDC', window: 'day', remaining: expect.stringMatching(/^12(\.0+)?$/) }),
    );
    expect(limits.text).toMatch(/USDC \(stablecoin\): 12(\.0+)? of 12(\.0+)? left in any 24 hours/);

    // A first send within the limit goes through after the yes, and counts.
    const script = new ElicitationScript();
    const asking = await mcpClient(httpTransport(env.url, alice.key), script);
    clients.push(asking);
    expect((await callTool(asking, 'send_money', { to: bob.handle, amount: '8', currency: 'USDC' })).isError).toBeFalsy();

    const [refused] = await refusedByBoth(alice, 'send_money', { to: bob.handle, amount: '5', currency: 'USDC' }, 'limit_exceeded');
    expect(refused!.structuredContent).toMatchObject({ window: 'day', retryAfterSeconds: expect.any(Number), retryAt: expect.any(String) });
    expect(refused!.structuredContent.limit).toMatch(/^12(\.0+)?$/);
    expect(refused!.structuredContent.remaining).toMatch(/^4(\.0+)?$/);
    expect(refused!.structuredContent.nextStep).toMatch(
      /limit on sending USDC is 12(\.0+)? USDC in any 24 hours, and 4(\.0+)? USDC of it is left\. More can be sent from \d{4}-\d\d-\d\d \d\d:\d\d UTC \(in about \d+ (hours|minutes)\)\. Nothing was moved\. .*send at most 4(\.0+)? USDC now/,
    );
    await refusedByBoth(alice, 'withdraw', { amount: '5', currency: 'USDC', address: freshAddress() }, 'limit_exceeded');
    expect((await bob.api.getStablecoinBalance()).USDC).toBe('7.880800');
    expect((await alice.api.getStablecoinBalance()).USDC).toBe('42.000000');
  });

  it('a sanctioned address: withdraw refuses at once; nothing is asked, recorded or sent', async () => {
    const alice = await env.user();
    const bob = await env.user();
    await env.fund(alice, 50_000_000n);
    const listed = freshAddress();
    const marked = await env.server.request('POST', '/test-helpers/sanctions', { body: { address: listed, sanctioned: true } });
    expect(marked.status, marked.text).toBeLessThan(300);

    const [refused] = await refusedByBoth(alice, 'withdraw', { amount: '5', currency: 'USDC', address: listed }, 'destination_sanctioned');
    // The tools refused at the quote, which freezes nothing: the text says so, and the account still sends.
    expect(refused!.structuredContent.nextStep).toMatch(/sanctions list: peerpay does not send to it, and nothing was sent/);
    expect(refused!.structuredContent.nextStep).not.toMatch(/has frozen/);
    const { plain } = await connectBoth(alice);
    expect((await callTool(plain, 'send_money', { to: bob.handle, amount: '1', currency: 'USDC' })).structuredContent).toMatchObject({
      status: 'confirmation_required',
    });
    expect((await alice.api.getStablecoinBalance()).USDC).toBe('50.000000');
  });
});
