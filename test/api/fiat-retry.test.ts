// The contract's setup-then-retry flow with one Idempotency-Key and the replay of a declined card.
// The per-account limits that replaced the daily velocity limit are tested in account-limits.test.ts
// (the 429, per currency, nothing moved) and account-limits-race.test.ts (racing transfers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { expectProblem, registerUser, startTestServer, type TestServer } from '../helpers/test-server.js';
import { balances, send, setUp } from '../helpers/fiat.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
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
