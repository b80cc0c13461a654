// Balance reads authenticate and read the balances in one statement (auth.ts, authReadsBalances):
// the answer is the ledger's at that moment, for the caller only, and a revoked key is refused at
// once, since the key is checked in that same statement on every request. A quote reads its key
// and its recipient in one statement too (accountAlongsideKey).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KyselyPlugin } from 'kysely';
import { expectProblem, registerUser, startTestServer, type TestServer } from '../helpers/test-server.js';
import { openTestDatabase } from '../helpers/test-database.js';
import { agentTransfer, fund } from '../helpers/stablecoin.js';

let server: TestServer;
/** Statements run by the server's database handle: every one of its look-ups. */
let statements = 0;

beforeAll(async () => {
  const database = await openTestDatabase();
  const counter: KyselyPlugin = {
    transformQuery: (args) => args.node,
    // Once per statement, prebuilt ones included (the look-ups send their SQL text as it is).
    transformResult: async (args) => {
      statements++;
      return args.result;
    },
  };
  server = await startTestServer({}, { database: { ...database, db: database.db.withPlugin(counter) } });
});
afterAll(async () => {
  await server.close();
});

/** The statements the server ran while answering `request`. */
async function statementsOf<T>(request: () => Promise<T>): Promise<{ answer: T; used: number }> {
  const before = statements;
  const answer = await request();
  return { answer, used: statements - before };
}

describe('balance reads in one round trip', () => {
  it('take one statement each, key and balances together', async () => {
    const frank = await registerUser(server);
    const { answer, used } = await statementsOf(() => server.request('GET', '/stablecoin/balance', { key: frank.key }));
    expect(answer.status).toBe(200);
    expect(used).toBe(1);
  });

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

// A quote reads the key, the sender's freeze (DESIGN §17; with the key, decision 0057) and the
// recipient in one statement, then its limits, so that a quote refuses what the transfer would: two
// in all. A fiat transfer's quote still reads the freeze with a statement of its own: three.
const QUOTE_STATEMENTS = 2;
const FIAT_QUOTE_STATEMENTS = 3;

describe('quotes in few round trips', () => {
  it('read the key, the freeze and the recipient in one statement, by handle, e-mail or phone, then the limits, and answer as before', async () => {
    const gina = await registerUser(server);
    const hugo = await registerUser(server);
    for (const to of [hugo.handle, hugo.handle.toLowerCase(), encodeURIComponent(hugo.email)]) {
      const { answer, used } = await statementsOf(() =>
        server.request('GET', `/agent/transfer/quote?to=${to}&amount=2&currency=EURC`, { key: gina.key }),
      );
      expect(answer.status, to).toBe(200);
      expect(answer.body).toEqual({
        amount: 2,
        fee: 0.0298,
        feeRate: expect.any(String),
        recipientReceives: 1.9702,
        currency: 'EURC',
        recipientHandle: hugo.handle,
      });
      expect(used, to).toBe(QUOTE_STATEMENTS);
    }
  });

  it('of a fiat transfer read the key and the recipient in one statement too, then the freeze and the limits, and refuse as before', async () => {
    const jana = await registerUser(server);
    const karl = await registerUser(server);
    const quote = (handle: string) =>
      server.request('GET', `/transfers/quote?recipientHandle=${handle}&amount=10&currency=USD`, { key: jana.key });
    for (const handle of [karl.handle, karl.handle.toLowerCase()]) {
      const { answer, used } = await statementsOf(() => quote(handle));
      expect(answer.status, handle).toBe(200);
      expect(answer.body).toMatchObject({ amount: '10.00', currency: 'USD' });
      expect(used, handle).toBe(FIAT_QUOTE_STATEMENTS);
    }
    expectProblem(await quote('PA-NOBODY00'), 404, 'recipient_not_found');
    expectProblem(await quote('not-a-handle'), 404, 'recipient_not_found');
    expectProblem(await quote(jana.handle), 400, 'self_transfer');
  });

  it('refuse as before: nobody there, oneself, a malformed recipient, a refused key, a revoked one', async () => {
    const ivan = await registerUser(server);
    const quote = (to: string, key = ivan.key) => server.request('GET', `/agent/transfer/quote?to=${to}&amount=1`, { key });
    expectProblem(await quote('PA-NOBODY00'), 404, 'recipient_not_found');
    expectProblem(await quote('nobody-here%40example.com'), 404, 'recipient_not_found');
    expectProblem(await quote(ivan.handle), 400, 'self_transfer');
    expectProblem(await quote('not%20a%20recipient'), 400, 'invalid_request');
    // Sent twice, `to` is not one string: the early look-up is skipped and validation refuses it.
    expectProblem(await server.request('GET', `/agent/transfer/quote?to=${ivan.handle}&to=PA-NOBODY00&amount=1`, { key: ivan.key }), 400);
    const other = await registerUser(server);
    expectProblem(await quote(other.handle, 'pa_live_' + 'x'.repeat(40)), 401, 'unauthorized');
    expect((await server.request('POST', '/account/revoke-key', { key: other.key })).status).toBe(200);
    expectProblem(await quote(ivan.handle, other.key), 401, 'unauthorized');
  });
});
