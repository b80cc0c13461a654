// The journey of issue 2 on the fiat rail, through the HTTP API of a running server: card setup,
// instant transfers with the fee on top, ACH refused until bank debit is set up, then pending and
// settled by the sandbox clock; returned debits, declined cards, and no card at all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { expectProblem, registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { advanceDays, balances, moneySnapshot, send, setUp } from '../helpers/fiat.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server.close();
});

/** Weekdays (UTC) strictly after `from` up to and including `to`, by walking the calendar. */
function businessDaysBetween(from: Date, to: Date): number {
  let count = 0;
  for (let t = from.getTime() + 86_400_000; t <= to.getTime(); t += 86_400_000) {
    const day = new Date(t).getUTCDay();
    if (day !== 0 && day !== 6) count++;
  }
  return count;
}

describe('the fiat journey', () => {
  let sender: TestUser;
  let recipient: TestUser;

  beforeAll(async () => {
    sender = await registerUser(server);
    recipient = await registerUser(server);
  });

  it('refuses an instant transfer before any card is set up (402 card_setup_required), moving nothing', async () => {
    const before = await moneySnapshot(server);
    const problem = expectProblem(
      await send(server, sender, { recipientHandle: recipient.handle, amount: 10, currency: 'USD' }),
      402,
      'card_setup_required',
    );
    expect(problem.detail).toMatch(/setup-link/);
    expect(await moneySnapshot(server)).toBe(before);
  });

  it('sends 10.00 USD instant after card setup: fee 0.25, total 10.25, recipient available 10.00', async () => {
    await setUp(server, sender, '/agent/setup-link');
    const response = await send(server, sender, {
      recipientHandle: recipient.handle,
      amount: 10,
      currency: 'USD',
      paymentMethod: 'instant',
      note: 'lunch',
    });
    expect(response.status).toBe(200);
    const t = response.body.transfer;
    expect(t).toMatchObject({
      amount: '10.00',
      fee: '0.25',
      totalDeducted: '10.25',
      currency: 'USD',
      status: 'completed',
      paymentMethod: 'instant',
      recipientHandle: recipient.handle,
      note: 'lunch',
    });
    expect(t.id).toMatch(/^tr_/);
    expect(new Date(t.createdAt).toISOString()).toBe(t.createdAt);
    expect((await balances(server, recipient)).USD).toEqual({ available: '10.00', pending: '0.00' });
    // The sender pays by card; its own fiat balance is untouched.
    expect((await balances(server, sender)).USD).toEqual({ available: '0.00', pending: '0.00' });
  });

  it('defaults paymentMethod to instant', async () => {
    const response = await send(server, sender, { recipientHandle: recipient.handle, amount: 1.5, currency: 'EUR' });
    expect(response.status).toBe(200);
    expect(response.body.transfer).toMatchObject({
      paymentMethod: 'instant',
      amount: '1.50',
      fee: '0.04',
      totalDeducted: '1.54',
      status: 'completed',
    });
  });

  it('charges a 25 JPY fee on 1000 JPY, with no decimals', async () => {
    const response = await send(server, sender, { recipientHandle: recipient.handle, amount: 1000, currency: 'JPY' });
    expect(response.status).toBe(200);
    expect(response.body.transfer).toMatchObject({
      amount: '1000',
      fee: '25',
      totalDeducted: '1025',
      currency: 'JPY',
      status: 'completed',
    });
    expect((await balances(server, recipient)).JPY).toEqual({ available: '1000', pending: '0' });
  });

  it('refuses ACH without bank debit setup: 409 ach_setup_required with needsBankDebitSetup true, moving nothing', async () => {
    const before = await moneySnapshot(server);
    const problem = expectProblem(
      await send(server, sender, { recipientHandle: recipient.handle, amount: 20, currency: 'USD', paymentMethod: 'ach' }),
      409,
      'ach_setup_required',
    );
    expect(problem.needsBankDebitSetup).toBe(true);
    expect(await moneySnapshot(server)).toBe(before);
  });

  it('after the bank-debit link, ACH is pending 3 business days, then completed when the clock moves 5 days', async () => {
    await setUp(server, sender, '/agent/bank-debit-link');
    const response = await send(server, sender, { recipientHandle: recipient.handle, amount: 20, currency: 'USD', paymentMethod: 'ach' });
    expect(response.status).toBe(200);
    const t = response.body.transfer;
    expect(t).toMatchObject({
      amount: '20.00',
      fee: '0.16',
      totalDeducted: '20.16',
      status: 'pending',
      paymentMethod: 'ach',
      completedAt: null,
    });
    const created = new Date(t.createdAt);
    const settles = new Date(t.expectedSettlementAt);
    expect(businessDaysBetween(created, settles)).toBe(3);
    expect(settles.getUTCHours()).toBe(created.getUTCHours());
    expect((await balances(server, recipient)).USD).toEqual({ available: '10.00', pending: '20.00' });

    // One day later it has not settled yet (3 business days are at least 3 calendar days).
    await advanceDays(server, 1);
    expect((await balances(server, recipient)).USD).toEqual({ available: '10.00', pending: '20.00' });

    await advanceDays(server, 4);
    expect((await balances(server, recipient)).USD).toEqual({ available: '30.00', pending: '0.00' });
    const history = await server.request('GET', '/transfers', { key: sender.key });
    const settled = history.body.transfers.find((x: { id: string }) => x.id === t.id);
    expect(settled).toMatchObject({ status: 'completed', direction: 'sent', fee: '0.16', totalDeducted: '20.16' });
    expect(new Date(settled.completedAt).getTime()).toBeGreaterThanOrEqual(settles.getTime());
    expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  });
});

describe('a bank account set up to return debits', () => {
  it('fails the ACH transfer at settlement and removes the recipient’s pending credit', async () => {
    const sender = await registerUser(server);
    const recipient = await registerUser(server);
    await setUp(server, sender, '/agent/bank-debit-link', 'return');
    const response = await send(server, sender, {
      recipientHandle: recipient.handle,
      amount: 12.34,
      currency: 'GBP',
      paymentMethod: 'ach',
    });
    expect(response.status).toBe(200);
    expect(response.body.transfer).toMatchObject({ status: 'pending', amount: '12.34', fee: '0.10', totalDeducted: '12.44' });
    expect((await balances(server, recipient)).GBP).toEqual({ available: '0.00', pending: '12.34' });

    await advanceDays(server, 5);
    expect((await balances(server, recipient)).GBP).toEqual({ available: '0.00', pending: '0.00' });
    const sent = (await server.request('GET', '/transfers', { key: sender.key })).body.transfers[0];
    expect(sent).toMatchObject({ id: response.body.transfer.id, status: 'failed', failureCode: 'bank_debit_returned' });
    const received = (await server.request('GET', '/transfers', { key: recipient.key })).body.transfers[0];
    expect(received).toMatchObject({ id: response.body.transfer.id, status: 'failed', direction: 'received' });
    expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  });
});

describe('a declined card', () => {
  it('answers 402 card_declined, moves nothing, and a new card set up through a fresh link works', async () => {
    const sender = await registerUser(server);
    const recipient = await registerUser(server);
    await setUp(server, sender, '/agent/setup-link', 'decline');
    const recipientBefore = await balances(server, recipient);
    const ledgerBefore = await server.deps.db
      .selectFrom('ledger_transfers')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();

    const problem = expectProblem(
      await send(server, sender, { recipientHandle: recipient.handle, amount: 10, currency: 'USD' }),
      402,
      'card_declined',
    );
    expect(problem.detail).toMatch(/setup-link/);
    expect(await balances(server, recipient)).toEqual(recipientBefore);
    const ledgerAfter = await server.deps.db
      .selectFrom('ledger_transfers')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(String(ledgerAfter.n)).toBe(String(ledgerBefore.n));
    // The attempt is on record for the sender as failed; the recipient never sees it.
    const sent = (await server.request('GET', '/transfers', { key: sender.key })).body.transfers;
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ status: 'failed', failureCode: 'card_declined' });
    expect((await server.request('GET', '/transfers', { key: recipient.key })).body.transfers).toEqual([]);

    await setUp(server, sender, '/agent/setup-link', 'succeed');
    const retry = await send(server, sender, { recipientHandle: recipient.handle, amount: 10, currency: 'USD' });
    expect(retry.status).toBe(200);
    expect(retry.body.transfer.status).toBe('completed');
    expect((await balances(server, recipient)).USD).toEqual({ available: '10.00', pending: '0.00' });
  });
});

describe('recipients', () => {
  it('answers 404 recipient_not_found for an unknown handle and 400 self_transfer for oneself', async () => {
    const sender = await registerUser(server);
    await setUp(server, sender, '/agent/setup-link');
    const before = await moneySnapshot(server);
    expectProblem(await send(server, sender, { recipientHandle: 'PA-ZZZZZZZZ', amount: 1, currency: 'USD' }), 404, 'recipient_not_found');
    expectProblem(await send(server, sender, { recipientHandle: sender.handle, amount: 1, currency: 'USD' }), 400, 'self_transfer');
    expect(await moneySnapshot(server)).toBe(before);
  });

  it('accepts a handle in lower case and a currency code in lower case', async () => {
    const sender = await registerUser(server);
    const recipient = await registerUser(server);
    await setUp(server, sender, '/agent/setup-link');
    const response = await send(server, sender, { recipientHandle: recipient.handle.toLowerCase(), amount: 2, currency: 'usd' });
    expect(response.status).toBe(200);
    expect(response.body.transfer).toMatchObject({ recipientHandle: recipient.handle, currency: 'USD', amount: '2.00', fee: '0.05' });
  });
});
