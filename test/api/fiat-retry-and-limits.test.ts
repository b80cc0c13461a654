// The contract's setup-then-retry flow with one Idempotency-Key, the replay of a declined card, and
// the per-sender daily velocity limit (DESIGN §6).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { expectProblem, registerUser, startTestServer, type TestServer } from '../helpers/test-server.js';
import { balances, moneySnapshot, send, setUp } from '../helpers/fiat.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ MAX_FIAT_DAILY_MAJOR: '100' });
});
afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server.close();
});

describe('retrying with the same Idempotency-Key', () => {
  it('after card_setup_required, the same key works once a card is set up', async () => {
    const sender = await registerUser(server);
    const recipient = await registerUser(server);
    const body = { recipientHandle: recipient.handle, amount: 3, currency: 'USD' };
    expectProblem(await send(server, sender, body, { 'idempotency-key': 'setup-then-retry' }), 402, 'card_setup_required');
    await setUp(server, sender, '/agent/setup-link');
    const retry = await send(server, sender, body, { 'idempotency-key': 'setup-then-retry' });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(retry.body.transfer).toMatchObject({ amount: '3.00', status: 'completed' });
    expect((await balances(server, recipient)).USD).toEqual({ available: '3.00', pending: '0.00' });
  });

  it('after ach_setup_required, the same key works once bank debit is set up', async () => {
    const sender = await registerUser(server);
    const recipient = await registerUser(server);
    const body = { recipientHandle: recipient.handle, amount: 4, currency: 'EUR', paymentMethod: 'ach' };
    const refused = expectProblem(await send(server, sender, body, { 'idempotency-key': 'ach-then-retry' }), 409, 'ach_setup_required');
    expect(refused.needsBankDebitSetup).toBe(true);
    await setUp(server, sender, '/agent/bank-debit-link');
    const retry = await send(server, sender, body, { 'idempotency-key': 'ach-then-retry' });
    expect(retry.status).toBe(200);
    expect(retry.body.transfer.status).toBe('pending');
  });

  it('a declined card is replayed as declined: the attempt was made', async () => {
    const sender = await registerUser(server);
    const recipient = await registerUser(server);
    await setUp(server, sender, '/agent/setup-link', 'decline');
    const body = { recipientHandle: recipient.handle, amount: 2, currency: 'GBP' };
    const first = expectProblem(await send(server, sender, body, { 'idempotency-key': 'declined' }), 402, 'card_declined');
    const again = await send(server, sender, body, { 'idempotency-key': 'declined' });
    expectProblem(again, 402, 'card_declined');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.transferId).toBe(first.transferId);
    expect((await balances(server, recipient)).GBP).toEqual({ available: '0.00', pending: '0.00' });
  });
});

describe('daily velocity limit', () => {
  it('refuses with 429 velocity_limit the transfer that would pass the day’s limit, per currency, and moves nothing', async () => {
    const sender = await registerUser(server);
    const recipient = await registerUser(server);
    await setUp(server, sender, '/agent/setup-link');
    expect((await send(server, sender, { recipientHandle: recipient.handle, amount: 60, currency: 'USD' })).status).toBe(200);
    expect((await send(server, sender, { recipientHandle: recipient.handle, amount: 40, currency: 'USD' })).status).toBe(200);
    const before = await moneySnapshot(server);
    const refused = await send(server, sender, { recipientHandle: recipient.handle, amount: 0.5, currency: 'USD' });
    expectProblem(refused, 429, 'velocity_limit');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await moneySnapshot(server)).toBe(before);
    // Another currency has its own limit.
    expect((await send(server, sender, { recipientHandle: recipient.handle, amount: 100, currency: 'EUR' })).status).toBe(200);
  });

  it('holds under concurrency: transfers racing for the last room never pass the limit together', async () => {
    const sender = await registerUser(server);
    const recipient = await registerUser(server);
    await setUp(server, sender, '/agent/setup-link');
    const results = await Promise.all(
      Array.from({ length: 8 }, () => send(server, sender, { recipientHandle: recipient.handle, amount: 49, currency: 'JPY' })),
    );
    const ok = results.filter((r) => r.status === 200).length;
    expect(ok).toBe(2);
    expect(results.filter((r) => r.status === 429 && r.body.code === 'velocity_limit')).toHaveLength(6);
    expect((await balances(server, recipient)).JPY!.available).toBe('98');
  });
});
