// Balance reads authenticate and read the balances in one statement (auth.ts, authReadsBalances):
// the answer is the ledger's at that moment, for the caller only, and a revoked key is refused at
// once, since the key is checked in that same statement on every request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, registerUser, startTestServer, type TestServer } from '../helpers/test-server.js';
import { agentTransfer, fund } from '../helpers/stablecoin.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe('balance reads in one round trip', () => {
  it('answer the caller’s own balances as the ledger holds them, after each transfer', async () => {
    const alice = await registerUser(server);
    const bob = await registerUser(server);
    await fund(server, alice, 5_000_000n);
    await fund(server, alice, 2_500_000n, 'EURC');
    expect((await server.request('GET', '/stablecoin/balance', { key: alice.key })).body).toEqual({ USDC: '5.000000', EURC: '2.500000' });
    expect((await server.request('GET', '/stablecoin/balance', { key: bob.key })).body).toEqual({ USDC: '0.000000', EURC: '0.000000' });
    expect((await agentTransfer(server, alice, { to: bob.handle, amount: 1, currency: 'USDC' })).status).toBe(200);
    expect((await server.request('GET', '/stablecoin/balance', { key: alice.key })).body).toEqual({ USDC: '4.000000', EURC: '2.500000' });
    expect((await server.request('GET', '/stablecoin/balance', { key: bob.key })).body).toEqual({ USDC: '0.985100', EURC: '0.000000' });
    const fiat = (await server.request('GET', '/balance', { key: bob.key })).body as {
      balances: { currency: string; available: string }[];
    };
    expect(fiat.balances.map((b) => b.currency).sort()).toEqual(['EUR', 'GBP', 'JPY', 'USD']);
    expect(fiat.balances.every((b) => /^0(\.0+)?$/.test(b.available))).toBe(true);
  });

  it('refuse a revoked key at once, and never answer another key’s balances', async () => {
    const carol = await registerUser(server);
    await fund(server, carol, 1_000_000n);
    expect((await server.request('GET', '/stablecoin/balance', { key: carol.key })).status).toBe(200);
    expect((await server.request('POST', '/account/revoke-key', { key: carol.key })).status).toBe(200);
    expectProblem(await server.request('GET', '/stablecoin/balance', { key: carol.key }), 401, 'unauthorized');
    expectProblem(await server.request('GET', '/balance', { key: carol.key }), 401, 'unauthorized');
    expectProblem(await server.request('GET', '/stablecoin/balance', { key: 'pa_live_' + 'x'.repeat(40) }), 401, 'unauthorized');
  });
});
