// Concurrent transfers from one balance never overdraw it (issue 3, item 6), through the API. On
// PostgreSQL (DATABASE_URL) the requests really race over a pool of connections; on PGlite they run
// one at a time, and the same outcomes must hold.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { expectProblem, registerUser, startTestServer, type TestServer } from '../helpers/test-server.js';
import { agentTransfer, balanceOf, emailTransfer, fund, minorOf } from '../helpers/stablecoin.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server.close();
});

async function overdrawnAccounts(): Promise<string[]> {
  const rows = await sql<{
    code: string;
  }>`select code from ledger_accounts where not allow_negative and balance - pending_debits < 0`.execute(server.deps.db);
  return rows.rows.map((r) => r.code);
}

async function transferCount(): Promise<number> {
  const row = await server.deps.db
    .selectFrom('stablecoin_transfers')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('concurrent transfers from one balance', () => {
  it('20 transfers of 10 USDC from 95: exactly 9 succeed, 11 are refused for insufficient balance, 5 is left', async () => {
    const payer = await registerUser(server);
    const payees = [await registerUser(server), await registerUser(server), await registerUser(server)];
    await fund(server, payer, 95_000_000n);
    const countBefore = await transferCount();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => agentTransfer(server, payer, { to: payees[i % 3]!.handle, amount: 10, currency: 'USDC' })),
    );
    const ok = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status !== 200);
    expect(ok).toHaveLength(9);
    expect(refused).toHaveLength(11);
    for (const r of refused) expectProblem(r, 400, 'insufficient_balance');
    expect((await balanceOf(server, payer)).USDC).toBe('5.000000');
    let received = 0n;
    for (const payee of payees) received += minorOf((await balanceOf(server, payee)).USDC);
    expect(received).toBe(9n * 9_851_000n);
    expect((await transferCount()) - countBefore).toBe(9);
    expect(await overdrawnAccounts()).toEqual([]);
    expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  });

  it('transfers both ways between two users, at once, on both endpoints, keep every unit', async () => {
    const a = await registerUser(server);
    const b = await registerUser(server);
    await fund(server, a, 30_000_000n);
    await fund(server, b, 30_000_000n);
    const requests = Array.from({ length: 24 }, (_, i) => {
      const [from, to] = i % 2 ? [a, b] : [b, a];
      return i % 3
        ? agentTransfer(server, from, { to: to.handle, amount: 4, currency: 'USDC' })
        : emailTransfer(server, from, { recipientEmail: to.email, amount: 4, currency: 'USDC' });
    });
    const responses = await Promise.all(requests);
    for (const r of responses.filter((r) => r.status !== 200)) expectProblem(r, 400, 'insufficient_balance');
    const ok = responses.filter((r) => r.status === 200).length;
    const fees = BigInt(ok) * 59_600n;
    const total = minorOf((await balanceOf(server, a)).USDC) + minorOf((await balanceOf(server, b)).USDC);
    expect(total + fees).toBe(60_000_000n);
    expect(await overdrawnAccounts()).toEqual([]);
  });

  it('concurrent transfers in two tokens from one user are independent', async () => {
    const payer = await registerUser(server);
    const payee = await registerUser(server);
    await fund(server, payer, 20_000_000n, 'USDC');
    await fund(server, payer, 20_000_000n, 'EURC');
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        agentTransfer(server, payer, { to: payee.handle, amount: 5, currency: i % 2 ? 'USDC' : 'EURC' }),
      ),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(8);
    expect(await balanceOf(server, payer)).toEqual({ USDC: '0.000000', EURC: '0.000000' });
    expect(await balanceOf(server, payee)).toEqual({ USDC: '19.702000', EURC: '19.702000' });
    expect(await overdrawnAccounts()).toEqual([]);
  });
});
