// The confirmation rules of @peerpay/mcp where a service cannot easily show them: a confirmed call
// whose outcome is unknown (the answer was lost) can be repeated with the same confirmationId, and
// the repeat sends the same Idempotency-Key (so the service replays instead of moving twice); the
// in-memory store of `peerpay mcp` expires, binds to its owner and is single use. The service is
// a scripted fetch here; the tools and the MCP client are the real ones, linked in memory.
import { describe, expect, it } from 'vitest';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createPeerpayClient } from '@peerpay/client';
import { CONFIRMATION_TTL_MS, createPeerpayMcpServer, hashTerms, MemoryConfirmationStore } from '@peerpay/mcp';
import { callTool, mcpClient } from './support.js';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const QUOTE = { amount: 10, fee: 0.149, feeRate: '1.49%', recipientReceives: 9.851, currency: 'USDC', recipientHandle: 'PA-BOB00001' };
const SENT = {
  transferId: 'st_1',
  status: 'complete',
  amount: 10,
  fee: 0.149,
  recipientAmount: 9.851,
  currency: 'USDC',
  recipientHandle: 'PA-BOB00001',
  createdAt: '2026-01-05T10:00:00.000Z',
};

describe('@peerpay/mcp confirmations', () => {
  it('lets a confirmed call whose answer was lost be repeated, with the same Idempotency-Key', async () => {
    const transferKeys: string[] = [];
    let loseNext = true;
    const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input));
      if (url.pathname === '/agent/transfer/quote') return json(QUOTE);
      if (url.pathname === '/stablecoin/lookup')
        return json({ found: true, handle: 'PA-BOB00001', agentHandle: 'PA-BOB00001', firstName: 'Bob' });
      if (url.pathname === '/agent/transfer') {
        transferKeys.push(new Headers(init?.headers).get('idempotency-key')!);
        if (loseNext) {
          loseNext = false;
          throw new TypeError('fetch failed: socket hang up');
        }
        return json(SENT);
      }
      return json({ type: 'about:blank', title: 'Not found', status: 404, detail: 'no', code: 'not_found' }, 404);
    }) as typeof fetch;
    const api = createPeerpayClient({ baseUrl: 'http://peerpay.test', apiKey: 'pa_live_x', fetch: fetchImpl, maxRetries: 0 });
    const server = createPeerpayMcpServer({ api: () => api, confirmations: new MemoryConfirmationStore(), owner: () => 'PA-ALICE001' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = await mcpClient(clientSide);

    const send = { to: 'bob@example.com', amount: '10', currency: 'USDC' };
    const first = await callTool(client, 'send_money', send);
    expect(first.text).toContain('"Bob" (handle PA-BOB00001)');
    const confirmationId = first.structuredContent.confirmationId;
    expect(transferKeys).toEqual([]);

    const lost = await callTool(client, 'send_money', { ...send, confirmationId });
    expect(lost).toMatchObject({ isError: true, structuredContent: { code: 'network_error' } });
    const repeated = await callTool(client, 'send_money', { ...send, confirmationId });
    expect(repeated.isError, repeated.text).toBeFalsy();
    expect(transferKeys).toHaveLength(2);
    expect(transferKeys[1]).toBe(transferKeys[0]);
    expect(await callTool(client, 'send_money', { ...send, confirmationId })).toMatchObject({
      structuredContent: { code: 'confirmation_used' },
    });
    expect(transferKeys).toHaveLength(2);
    await client.close();
  });

  it('the memory store: expires after 5 minutes, binds to its owner and terms, single use', async () => {
    let now = Date.parse('2026-01-05T10:00:00Z');
    const store = new MemoryConfirmationStore({ now: () => now });
    const terms = hashTerms({ amount: '10', currency: 'USDC', recipientHandle: 'PA-BOB00001' });
    const a = await store.create({ owner: 'alice', termsHash: terms });
    expect(a.expiresAt.getTime() - now).toBe(CONFIRMATION_TTL_MS);
    expect(await store.claim({ id: a.id, owner: 'mallory', termsHash: terms })).toBe('not_found');
    expect(
      await store.claim({
        id: a.id,
        owner: 'alice',
        termsHash: hashTerms({ amount: '11', currency: 'USDC', recipientHandle: 'PA-BOB00001' }),
      }),
    ).toBe('terms_changed');
    expect(await store.claim({ id: a.id, owner: 'alice', termsHash: terms })).toBe('claimed');
    expect(await store.claim({ id: a.id, owner: 'alice', termsHash: terms })).toBe('used');
    const b = await store.create({ owner: 'alice', termsHash: terms });
    now += CONFIRMATION_TTL_MS;
    expect(await store.claim({ id: b.id, owner: 'alice', termsHash: terms })).toBe('expired');
    expect(await store.claim({ id: 'conf_made-up', owner: 'alice', termsHash: terms })).toBe('not_found');
  });
});
