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

  it('refuses a key revoked while requests with it are in flight in the same turn, from the next request on, never with a 500', async () => {
    const dave = await registerUser(server);
    const erin = await registerUser(server);
    await fund(server, dave, 1_000_000n);
    const quote = `/agent/transfer/quote?to=${erin.handle}&amount=0.5`;
    // Started in one turn: their key look-ups share statements, and the revocation races them.
    const reads = [
      ...Array.from({ length: 8 }, () => server.request('GET', '/stablecoin/balance', { key: dave.key })),
      ...Array.from({ length: 8 }, () => server.request('GET', quote, { key: dave.key })),
    ];
    const revocation = server.request('POST', '/account/revoke-key', { key: dave.key });
    const more = Array.from({ length: 8 }, () => server.request('GET', '/stablecoin/balance', { key: dave.key }));
    expect((await revocation).status).toBe(200);
    for (const response of await Promise.all([...reads, ...more])) {
      if (response.status === 200) continue;
      expectProblem(response, 401, 'unauthorized');
    }
    // Every request made after the revocation was answered is refused, however they are coalesced.
    const after = await Promise.all([
      server.request('GET', '/stablecoin/balance', { key: dave.key }),
      server.request('GET', quote, { key: dave.key }),
      server.request('GET', '/stablecoin/balance', { key: erin.key }),
    ]);
    expectProblem(after[0], 401, 'unauthorized');
    expectProblem(after[1], 401, 'unauthorized');
    expect(after[2].status).toBe(200);
  });
});
