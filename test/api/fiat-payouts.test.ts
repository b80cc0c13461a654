// Payouts: money a user receives is paid out to its connected payout account by the payout job
// (run here through the sandbox clock helper, which runs the due jobs before answering).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { advanceDays, balances, send, setUp } from '../helpers/fiat.js';

let server: TestServer;
let payer: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  payer = await registerUser(server);
  await setUp(server, payer, '/agent/setup-link');
  await setUp(server, payer, '/agent/bank-debit-link');
});

afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server.close();
});

async function payoutsOf(user: TestUser) {
  const response = await server.request('GET', '/transactions?limit=100', { key: user.key });
  expect(response.status).toBe(200);
  return response.body.transactions.filter((e: { type: string }) => e.type === 'payout');
}

describe('payouts', () => {
  it('nothing is paid out before a payout account is connected', async () => {
    const user = await registerUser(server);
    await send(server, payer, { recipientHandle: user.handle, amount: 4, currency: 'USD' });
    await advanceDays(server, 1);
    expect((await balances(server, user)).USD).toEqual({ available: '4.00', pending: '0.00' });
    expect(await payoutsOf(user)).toEqual([]);
  });

  it('after connect-link, each currency’s available balance is paid out, and later receipts too', async () => {
    const user = await registerUser(server);
    await send(server, payer, { recipientHandle: user.handle, amount: 10, currency: 'USD' });
    await send(server, payer, { recipientHandle: user.handle, amount: 1000, currency: 'JPY' });
    await setUp(server, user, '/agent/connect-link');
    await advanceDays(server, 1);
    const after = await balances(server, user);
    expect(after.USD).toEqual({ available: '0.00', pending: '0.00' });
    expect(after.JPY).toEqual({ available: '0', pending: '0' });
    const payouts = await payoutsOf(user);
    expect(payouts).toHaveLength(2);
    expect(
      payouts.map((p: { amount: string; currency: string; status: string }) => `${p.amount} ${p.currency} ${p.status}`).sort(),
    ).toEqual(['10.00 USD paid', '1000 JPY paid']);
    for (const p of payouts) {
      expect(p.payoutId).toBe(p.id);
      expect(p.transferId).toBeNull();
      expect(p.completedAt).not.toBeNull();
    }

    await send(server, payer, { recipientHandle: user.handle, amount: 2.5, currency: 'USD' });
    expect((await balances(server, user)).USD!.available).toBe('2.50');
    await advanceDays(server, 1);
    expect((await balances(server, user)).USD!.available).toBe('0.00');
    expect((await payoutsOf(user)).map((p: { amount: string }) => p.amount)).toContain('2.50');
    // Nothing left to pay: another round makes no payout.
    await advanceDays(server, 1);
    expect(await payoutsOf(user)).toHaveLength(3);
    expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  });

  it('money received by ACH is paid out only once it has settled', async () => {
    const user = await registerUser(server);
    await setUp(server, user, '/agent/connect-link');
    await send(server, payer, { recipientHandle: user.handle, amount: 20, currency: 'USD', paymentMethod: 'ach' });
    await advanceDays(server, 1);
    expect((await balances(server, user)).USD).toEqual({ available: '0.00', pending: '20.00' });
    expect(await payoutsOf(user)).toEqual([]);
    await advanceDays(server, 5);
    expect((await balances(server, user)).USD).toEqual({ available: '0.00', pending: '0.00' });
    expect((await payoutsOf(user)).map((p: { amount: string; status: string }) => `${p.amount} ${p.status}`)).toEqual(['20.00 paid']);
  });

  it('a payout account that declines: the payout fails, the money is available again, and is not retried until another account is connected', async () => {
    const user = await registerUser(server);
    await setUp(server, user, '/agent/connect-link', 'decline');
    await send(server, payer, { recipientHandle: user.handle, amount: 7, currency: 'GBP' });
    await advanceDays(server, 1);
    expect((await balances(server, user)).GBP).toEqual({ available: '7.00', pending: '0.00' });
    const failed = await payoutsOf(user);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ amount: '7.00', currency: 'GBP', status: 'failed' });

    await advanceDays(server, 1);
    expect(await payoutsOf(user)).toHaveLength(1);
    expect((await balances(server, user)).GBP!.available).toBe('7.00');

    await setUp(server, user, '/agent/connect-link', 'succeed');
    await advanceDays(server, 1);
    expect((await balances(server, user)).GBP!.available).toBe('0.00');
    const all = await payoutsOf(user);
    expect(all.map((p: { status: string }) => p.status).sort()).toEqual(['failed', 'paid']);
    expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  });

  it('pays each payout once at the processor, under its own id', async () => {
    const rows = await server.deps.db.selectFrom('payouts').select(['id', 'status']).execute();
    expect(rows.length).toBeGreaterThan(0);
    const charges = await server.deps.db
      .selectFrom('sandbox_charges')
      .select(['idempotency_key', 'status'])
      .where('kind', '=', 'payout')
      .execute();
    expect(charges.map((c) => c.idempotency_key).sort()).toEqual(rows.map((r) => r.id).sort());
    for (const row of rows) {
      const charge = charges.find((c) => c.idempotency_key === row.id)!;
      expect(charge.status).toBe(row.status === 'paid' ? 'succeeded' : 'declined');
    }
  });
});
