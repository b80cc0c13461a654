// Card money risk on the sandbox (DESIGN §16): operator refunds (with and without the fee, repeat
// and refusals), refunds made elsewhere booked once, failed refunds undone once, disputes before
// and after payout (held, then owed, repaid by the next receipt), won and lost, the disputing
// sender refused card payments, early fraud warnings pausing payouts, payout reversals, write-offs
// and the reports. Every path runs through the same event handler as Stripe's webhooks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { applyProcessorEvent } from '../../src/fiat/processor-events.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { advanceDays, send, setUp } from '../helpers/fiat.js';

const TOKEN = 'operator-token-for-card-risk-tests-0123456789';
const operator = { authorization: `Bearer ${TOKEN}` };

let server: TestServer;
let payer: TestUser;

beforeAll(async () => {
  server = await startTestServer({ FIAT_HOLD_HOURS: '24', OPERATOR_TOKEN: TOKEN });
  payer = await registerUser(server);
  await setUp(server, payer, '/agent/setup-link');
});

afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server.close();
});

async function usd(user: TestUser) {
  const response = await server.request('GET', '/balance', { key: user.key });
  const { available, held, owed } = response.body.balances.find((b: { currency: string }) => b.currency === 'USD');
  return { available, held, owed };
}

/** A sender of its own: a disputed sender cannot pay by card any more. */
async function newPayer(): Promise<TestUser> {
  const sender = await registerUser(server);
  await setUp(server, sender, '/agent/setup-link');
  return sender;
}

async function pay(to: TestUser, amount: number, from: TestUser = payer): Promise<string> {
  const sent = await send(server, from, { recipientHandle: to.handle, amount, currency: 'USD' });
  expect(sent.body.code ?? sent.status).toBe(200);
  return sent.body.transfer.id;
}

function refund(transferId: string, body: Record<string, unknown>, key?: string) {
  return server.request('POST', `/admin/transfers/${transferId}/refund`, {
    body: { reason: 'requested_by_customer', note: 'customer asked', ...body },
    headers: { ...operator, ...(key ? { 'Idempotency-Key': key } : {}) },
  });
}

async function eventTypes(user: TestUser): Promise<string[]> {
  const response = await server.request('GET', '/events?limit=100', { key: user.key });
  return response.body.events.map((e: { type: string }) => e.type);
}

async function openDispute(transferId: string, extra: Record<string, unknown> = {}): Promise<string> {
  const response = await server.request('POST', '/test-helpers/disputes', { body: { transferId, ...extra } });
  expect(response.status).toBe(200);
  return response.body.dispute.id;
}

async function closeDispute(id: string, outcome: 'won' | 'lost') {
  const response = await server.request('POST', `/test-helpers/disputes/${id}/close`, { body: { outcome } });
  expect(response.status).toBe(200);
  return response.body;
}

describe('operator refunds', () => {
  it('refunds a held card payment whole: the recipient gives back, both sides are told, the action is recorded; a repeat replays', async () => {
    const user = await registerUser(server);
    const transferId = await pay(user, 10);
    expect(await usd(user)).toEqual({ available: '0.00', held: '10.00', owed: '0.00' });
    const first = await refund(transferId, {}, 'refund-1');
    expect(first.status).toBe(200);
    expect(first.body.refund).toMatchObject({
      transferId,
      amount: '10.00',
      fee: '0.00',
      status: 'succeeded',
      reason: 'requested_by_customer',
    });
    expect(await usd(user)).toEqual({ available: '0.00', held: '0.00', owed: '0.00' });
    expect(await eventTypes(user)).toContain('transfer.refunded');
    expect(await eventTypes(payer)).toContain('transfer.refunded');
    const again = await refund(transferId, {}, 'refund-1');
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.refund.id).toBe(first.body.refund.id);
    expect((await refund(transferId, { note: 'other' }, 'refund-1')).body.code).toBe('idempotency_key_reused');
    const nothingLeft = await refund(transferId, {}, 'refund-2');
    expect(nothingLeft.status).toBe(400);
    expect(nothingLeft.body.code).toBe('invalid_amount');
    const actions = await server.deps.db.selectFrom('audit_log').selectAll().where('target', '=', transferId).execute();
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({ operator: 'env', action: 'transfer.refund', note: 'customer asked' });
    for (const who of [user, payer]) {
      const history = await server.request('GET', '/transfers?limit=100', { key: who.key });
      expect(history.body.transfers.find((t: { id: string }) => t.id === transferId).refunded).toBe('10.00');
    }
  });

  it('refunds part with the fee: the fee comes from the platform, in proportion', async () => {
    const user = await registerUser(server);
    const transferId = await pay(user, 20); // fee 0.50 at 2.5 %
    const response = await refund(transferId, { amount: 10, refundFee: true });
    expect(response.body.refund).toMatchObject({ amount: '10.00', fee: '0.25', status: 'succeeded' });
    expect(await usd(user)).toEqual({ available: '0.00', held: '10.00', owed: '0.00' });
    const charges = await server.deps.db
      .selectFrom('sandbox_refunds')
      .select('amount')
      .where('refund_id', '=', response.body.refund.id)
      .execute();
    expect(charges.map((c) => c.amount)).toEqual([1025n]);
  });

  it('refuses without the operator token, for more than is left, and for an unknown transfer, moving nothing', async () => {
    const user = await registerUser(server);
    const transferId = await pay(user, 5);
    const anonymous = await server.request('POST', `/admin/transfers/${transferId}/refund`, { body: { reason: 'duplicate', note: 'x' } });
    expect(anonymous.status).toBe(404);
    expect((await refund(transferId, { amount: 6 })).body.code).toBe('invalid_amount');
    expect((await refund('tr_nope', {})).status).toBe(404);
    expect((await refund(transferId, { note: '' })).status).toBe(400);
    expect(await usd(user)).toEqual({ available: '0.00', held: '5.00', owed: '0.00' });
  });
});

describe('refunds made elsewhere', () => {
  it('a dashboard refund is booked once however often it is reported, and a failed refund is undone once', async () => {
    const user = await registerUser(server);
    const transferId = await pay(user, 8);
    const made = await server.request('POST', '/test-helpers/refunds', { body: { transferId, amount: 3 } });
    expect(made.status).toBe(200);
    expect(await usd(user)).toMatchObject({ held: '5.00' });
    const [reported] = await server.deps.processor.listRefunds(
      (await server.deps.db.selectFrom('fiat_transfers').select('processor_ref').where('id', '=', transferId).executeTakeFirstOrThrow())
        .processor_ref!,
    );
    for (const eventId of ['evt_a', 'evt_a', 'evt_b']) {
      await applyProcessorEvent(server.deps, {
        eventId,
        type: 'charge.refunded',
        kind: 'refunds_changed',
        chargeRef: reported!.chargeRef,
        refunds: [reported!],
      });
    }
    expect(await usd(user)).toMatchObject({ held: '5.00' });
    const failed = await server.request('POST', `/test-helpers/refunds/${made.body.refund.id}/fail`, { body: {} });
    expect(failed.body.outcome).toBe('applied');
    expect(await usd(user)).toMatchObject({ available: '3.00', held: '5.00' });
    const failedAgain = await server.request('POST', `/test-helpers/refunds/${made.body.refund.id}/fail`, { body: {} });
    expect(failedAgain.body.outcome).toBe('no_change');
    expect(await usd(user)).toMatchObject({ available: '3.00', held: '5.00' });
  });
});

describe('disputes', () => {
  it('before payout: taken from held; the sender cannot pay by card while open; won returns it', async () => {
    const sender = await registerUser(server);
    await setUp(server, sender, '/agent/setup-link');
    const user = await registerUser(server);
    const transferId = await pay(user, 10, sender);
    const dispute = await openDispute(transferId, { disputeFee: 15 });
    expect(await usd(user)).toEqual({ available: '0.00', held: '0.00', owed: '0.00' });
    expect(await eventTypes(user)).toContain('transfer.disputed');
    const refused = await send(server, sender, { recipientHandle: user.handle, amount: 1, currency: 'USD' });
    expect(refused.status).toBe(402);
    expect(refused.body.code).toBe('card_disputed');
    expect(
      (await server.request('GET', '/admin/disputes?status=open', { headers: operator })).body.disputes.map(
        (d: { transferId: string }) => d.transferId,
      ),
    ).toContain(transferId);
    expect((await closeDispute(dispute, 'won')).outcome).toBe('applied');
    expect((await closeDispute(dispute, 'won')).outcome).toBe('no_change');
    expect(await usd(user)).toEqual({ available: '10.00', held: '0.00', owed: '0.00' });
    expect(await eventTypes(sender)).toContain('dispute.closed');
    expect((await send(server, sender, { recipientHandle: user.handle, amount: 1, currency: 'USD' })).status).toBe(200);
    const losses = (await server.request('GET', '/admin/losses', { headers: operator })).body.losses;
    expect(losses.find((l: { currency: string }) => l.currency === 'USD').disputeFees).toBe('15.00');
  });

  it('after payout: owed, no payouts nor sends while owed (403 account_in_debt), repaid first by the next receipt; lost stays lost; write-off moves it to losses', async () => {
    const user = await registerUser(server);
    await setUp(server, user, '/agent/setup-link');
    await setUp(server, user, '/agent/connect-link');
    const transferId = await pay(user, 12, await newPayer());
    await advanceDays(server, 2); // released and paid out
    expect(await usd(user)).toEqual({ available: '0.00', held: '0.00', owed: '0.00' });
    const dispute = await openDispute(transferId);
    expect(await usd(user)).toEqual({ available: '0.00', held: '0.00', owed: '12.00' });
    const refused = await send(server, user, { recipientHandle: payer.handle, amount: 1, currency: 'USD' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'account_in_debt', owed: '12.00' });
    await pay(user, 5);
    expect(await usd(user)).toEqual({ available: '0.00', held: '0.00', owed: '7.00' });
    await closeDispute(dispute, 'lost');
    expect(await usd(user)).toMatchObject({ owed: '7.00' });
    const id = (await server.deps.db.selectFrom('accounts').select('id').where('handle', '=', user.handle).executeTakeFirstOrThrow()).id;
    const off = await server.request('POST', `/admin/accounts/${id}/write-off`, {
      body: { currency: 'USD', note: 'gone' },
      headers: operator,
    });
    expect(off.status).toBe(200);
    expect(off.body.writeOff).toMatchObject({ currency: 'USD', amount: '7.00' });
    expect(await usd(user)).toMatchObject({ owed: '0.00' });
    const again = await server.request('POST', `/admin/accounts/${id}/write-off`, {
      body: { currency: 'USD', note: 'gone' },
      headers: operator,
    });
    expect(again.status).toBe(400);
    const losses = (await server.request('GET', '/admin/losses', { headers: operator })).body.losses;
    expect(losses.find((l: { currency: string }) => l.currency === 'USD').writtenOff).toBe('7.00');
  });

  it('a closed dispute whose created comes later is applied once, both steps', async () => {
    const user = await registerUser(server);
    const transferId = await pay(user, 6, await newPayer());
    const chargeRef = (
      await server.deps.db.selectFrom('fiat_transfers').select('processor_ref').where('id', '=', transferId).executeTakeFirstOrThrow()
    ).processor_ref!;
    const dispute = {
      disputeRef: 'du_out_of_order',
      chargeRef,
      currency: 'USD' as const,
      amountMinor: 615n,
      reason: 'fraudulent',
      feeMinor: null,
    };
    expect(
      await applyProcessorEvent(server.deps, {
        eventId: 'evt_closed',
        type: 'charge.dispute.closed',
        kind: 'dispute_changed',
        dispute: { ...dispute, status: 'lost' },
      }),
    ).toBe('applied');
    expect(
      await applyProcessorEvent(server.deps, {
        eventId: 'evt_created',
        type: 'charge.dispute.created',
        kind: 'dispute_changed',
        dispute: { ...dispute, status: 'open' },
      }),
    ).toBe('no_change');
    expect(await usd(user)).toEqual({ available: '0.00', held: '0.00', owed: '0.00' });
    const row = await server.deps.db.selectFrom('disputes').selectAll().where('processor_ref', '=', 'du_out_of_order').execute();
    expect(row).toHaveLength(1);
    expect(row[0]).toMatchObject({ status: 'lost', taken: 600n, fee_taken: 15n });
  });
});

describe('early fraud warnings and payout reversals', () => {
  it('an early fraud warning pauses the recipient’s payouts and opens a review item', async () => {
    const user = await registerUser(server);
    await setUp(server, user, '/agent/connect-link');
    const transferId = await pay(user, 9);
    const warned = await server.request('POST', '/test-helpers/early-fraud-warnings', { body: { transferId } });
    expect(warned.body.outcome).toBe('applied');
    await advanceDays(server, 2);
    expect(await usd(user)).toMatchObject({ available: '9.00', held: '0.00' });
    const items = await server.deps.db.selectFrom('review_items').selectAll().where('transfer_id', '=', transferId).execute();
    expect(items).toHaveLength(1);
  });

  it('a payout reversal brings the money back and repays what is owed first', async () => {
    const user = await registerUser(server);
    await setUp(server, user, '/agent/connect-link');
    const first = await pay(user, 10, await newPayer());
    await advanceDays(server, 2);
    const payout = await server.deps.db
      .selectFrom('payouts')
      .select(['id'])
      .where('status', '=', 'paid')
      .where('amount', '=', 1000n)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    await openDispute(first, { amount: 4 }); // 4.00 of the 10.25 charge: owed 4.00
    expect(await usd(user)).toMatchObject({ owed: '4.00' });
    const reverse = (key: string, body: Record<string, unknown>) =>
      server.request('POST', `/admin/payouts/${payout.id}/reverse`, { body, headers: { ...operator, 'Idempotency-Key': key } });
    const reversed = await reverse('rev-1', { amount: 6, note: 'take it back' });
    expect(reversed.status).toBe(200);
    expect(reversed.body.reversal).toMatchObject({ payoutId: payout.id, amount: '6.00' });
    expect((await reverse('rev-1', { amount: 6, note: 'take it back' })).headers.get('idempotent-replayed')).toBe('true');
    expect(await usd(user)).toMatchObject({ available: '2.00', owed: '0.00' });
    expect((await reverse('rev-2', { amount: 5, note: 'too much' })).body.code).toBe('invalid_amount');
  });
});

describe('refunds whose answer was lost', () => {
  it('are read back after 15 minutes: one the processor made is recorded once, one it never got is asked again with the same key', async () => {
    const processor = server.deps.processor;
    const original = processor.refund.bind(processor);
    const madeUser = await registerUser(server);
    const lostUser = await registerUser(server);
    const made = await pay(madeUser, 10);
    const neverSent = await pay(lostUser, 10);
    const asked: string[] = [];
    let answersLost = true;
    // While answers are lost, the processor makes the first refund but its answer never comes back,
    // and the second call never reaches it.
    processor.refund = async (input) => {
      asked.push(input.idempotencyKey);
      if (!answersLost) return original(input);
      if (input.transferId === made) await original(input);
      throw new Error('socket hang up');
    };
    const ours = async () =>
      new Map<string, { id: string; status: string }>(
        (await server.request('GET', '/admin/refunds', { headers: operator })).body.refunds
          .filter((r: { transferId: string }) => r.transferId === made || r.transferId === neverSent)
          .map((r: { transferId: string; id: string; status: string }) => [r.transferId, r]),
      );
    try {
      for (const transferId of [made, neverSent]) expect((await refund(transferId, {}, `lost-answer-${transferId}`)).status).toBe(503);
      const pending = await ours();
      expect([pending.get(made)?.status, pending.get(neverSent)?.status]).toEqual(['pending', 'pending']);
      // Taken back at once, as for any refund: the recipients hold nothing of it any more.
      expect(await usd(madeUser)).toEqual({ available: '0.00', held: '0.00', owed: '0.00' });
      answersLost = false;
      await advanceDays(server, 1);
      const after = await ours();
      expect([after.get(made)?.status, after.get(neverSent)?.status]).toEqual(['succeeded', 'succeeded']);
      // The refund made before its answer was lost is read back, not asked for again; the other is
      // asked again with the same key.
      expect(asked).toEqual([pending.get(made)!.id, pending.get(neverSent)!.id, pending.get(neverSent)!.id]);
    } finally {
      processor.refund = original;
    }
    for (const transferId of [made, neverSent]) {
      const row = await server.deps.db
        .selectFrom('fiat_transfers')
        .select('processor_ref')
        .where('id', '=', transferId)
        .executeTakeFirstOrThrow();
      expect(await processor.listRefunds(row.processor_ref!)).toHaveLength(1);
    }
    expect(await usd(madeUser)).toEqual({ available: '0.00', held: '0.00', owed: '0.00' });
    expect(await usd(lostUser)).toEqual({ available: '0.00', held: '0.00', owed: '0.00' });
  });
});
