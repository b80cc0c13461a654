// Issue 25's end-to-end run in live mode (DESIGN §16), every Stripe side effect through the stand-in
// and its signed webhooks: a card payment held, released and paid out; one disputed before payout
// (taken from held) and lost; one disputed after payout (owed, repaid by the next receipt) and won;
// an operator refund with and without the fee; a dashboard refund booked once although its events
// come twice; a refund that fails undone once; an early fraud warning pausing payouts. Afterwards
// peerpay's refunds and disputes match Stripe's, and the ledger's invariants hold.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { runJobsOnce } from '../../src/jobs/job-runner.js';
import { bindJob } from '../../src/jobs/job.js';
import { holdReleaseJob } from '../../src/jobs/hold-release-job.js';
import { payoutJob } from '../../src/jobs/payout-job.js';
import { expectProblem, registerUser, type TestUser } from '../helpers/test-server.js';
import { send } from '../helpers/fiat.js';
import {
  completeOnboarding,
  completeSetup,
  liveModeAvailable,
  LIVE_MODE_NEEDS,
  startLiveWorld,
  type LiveWorld,
} from '../helpers/live-mode.js';
import { runsIf } from '../helpers/runs-if.js';
import { cardRiskMismatches } from '../helpers/stripe-card-risk-books.js';

const OPERATOR_TOKEN = 'operator-token-live-card-risk-0123456789';
const HOLD_HOURS = 1;
const HOUR_MS = 3600_000;

interface FiatBalance {
  currency: string;
  available: string;
  pending: string;
  held: string;
  owed: string;
}

describe.runIf(runsIf(liveModeAvailable(), LIVE_MODE_NEEDS))('live mode: card money risk on Stripe', () => {
  let world: LiveWorld;
  let payer: TestUser;

  beforeAll(async () => {
    world = await startLiveWorld({ env: { FIAT_HOLD_HOURS: String(HOLD_HOURS), OPERATOR_TOKEN } });
    payer = await cardPayer();
  }, 120_000);

  afterAll(async () => {
    if (!world) return;
    await world.stripe.webhooksIdle();
    expect(await cardRiskMismatches(world.server.deps.db, world.stripe)).toEqual([]);
    expect(await checkLedgerInvariants(world.server.deps.db)).toEqual([]);
    await world.close();
  });

  async function cardPayer(): Promise<TestUser> {
    const user = await registerUser(world.server);
    await completeSetup(world, user, '/agent/setup-link', 'pm_card_visa');
    return user;
  }

  async function payee(options: { onboarded?: boolean } = {}): Promise<{ user: TestUser; account: string | null }> {
    const user = await registerUser(world.server);
    return { user, account: options.onboarded === false ? null : await completeOnboarding(world, user) };
  }

  async function usd(user: TestUser): Promise<FiatBalance> {
    const response = await world.server.request('GET', '/balance', { key: user.key });
    expect(response.status, response.text).toBe(200);
    return response.body.balances.find((b: FiatBalance) => b.currency === 'USD');
  }

  /** A card payment, settled with its webhooks; returns the transfer and its PaymentIntent. */
  async function pay(from: TestUser, to: TestUser, amount: number): Promise<{ id: string; fee: string; intent: string }> {
    const sent = await send(world.server, from, { recipientHandle: to.handle, amount, currency: 'USD' });
    expect(sent.status, sent.text).toBe(200);
    await world.stripe.webhooksIdle();
    const intent = world.stripe.paymentIntents().find((pi) => pi.metadata.peerpay_transfer_id === sent.body.transfer.id)!;
    return { id: sent.body.transfer.id, fee: sent.body.transfer.fee, intent: intent.id };
  }

  async function endHoldsAndPayOut(): Promise<void> {
    world.clock.advance(HOLD_HOURS * HOUR_MS + 60_000);
    await runJobsOnce(world.server.deps, undefined, [bindJob(holdReleaseJob, world.server.deps), bindJob(payoutJob, world.server.deps)]);
    await world.stripe.webhooksIdle();
  }

  const stripeTransfersTo = (account: string | null) => world.stripe.transfers().filter((t) => t.destination === account);
  const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };

  function refund(transferId: string, body: Record<string, unknown>, key = randomUUID()) {
    return world.server.request('POST', `/admin/transfers/${transferId}/refund`, {
      headers: { ...operator, 'idempotency-key': key },
      body,
    });
  }

  async function eventTypes(user: TestUser): Promise<string[]> {
    const response = await world.server.request('GET', '/events', { key: user.key });
    return response.body.events.map((e: { type: string }) => e.type);
  }

  const minor = (decimal: string) => BigInt(decimal.replace('.', ''));

  it('a card payment is held, then released and paid out', async () => {
    const { user, account } = await payee();
    await pay(payer, user, 25);
    expect(await usd(user)).toMatchObject({ available: '0.00', held: '25.00', owed: '0.00' });
    await runJobsOnce(world.server.deps, undefined, [bindJob(payoutJob, world.server.deps)]);
    expect(stripeTransfersTo(account)).toEqual([]);
    await endHoldsAndPayOut();
    expect(await usd(user)).toMatchObject({ available: '0.00', held: '0.00', owed: '0.00' });
    expect(stripeTransfersTo(account).map((t) => t.amount)).toEqual([2500]);
    expect(await eventTypes(user)).toEqual(expect.arrayContaining(['funds.released', 'payout.paid']));
  });

  it('disputed before payout: taken from held; the sender cannot pay by card while it is open; lost, the loss is recorded', async () => {
    const disputer = await cardPayer();
    const { user, account } = await payee();
    const paid = await pay(disputer, user, 30);
    const dispute = world.stripe.openDispute(paid.intent);
    await world.stripe.webhooksIdle();
    expect(await usd(user)).toMatchObject({ available: '0.00', held: '0.00', owed: '0.00' });
    expectProblem(await send(world.server, disputer, { recipientHandle: user.handle, amount: 5, currency: 'USD' }), 402, 'card_disputed');
    expect(await eventTypes(user)).toContain('transfer.disputed');
    expect(await eventTypes(disputer)).toContain('transfer.disputed');
    const open = await world.server.request('GET', '/admin/disputes?status=open', { headers: operator });
    expect(open.status, open.text).toBe(200);
    expect(JSON.stringify(open.body)).toContain(paid.id);

    world.stripe.closeDispute(dispute.id, 'lost');
    await world.stripe.webhooksIdle();
    const lost = await world.server.request('GET', '/admin/disputes?status=lost', { headers: operator });
    expect(JSON.stringify(lost.body)).toContain(paid.id);
    expect(await eventTypes(user)).toContain('dispute.closed');
    const losses = await world.server.request('GET', '/admin/losses', { headers: operator });
    expect(losses.status, losses.text).toBe(200);
    // Stripe's 15.00 dispute fee (this run's first dispute) is the platform's loss.
    expect(JSON.stringify(losses.body)).toContain('"disputeFees":"15.00"');
    await endHoldsAndPayOut();
    expect(stripeTransfersTo(account)).toEqual([]);
  });

  it('disputed after payout: owed (403 account_in_debt), repaid by the next receipt; won, returned', async () => {
    const disputer = await cardPayer();
    const { user, account } = await payee();
    const paid = await pay(disputer, user, 25);
    await endHoldsAndPayOut();
    expect(stripeTransfersTo(account).map((t) => t.amount)).toEqual([2500]);
    const dispute = world.stripe.openDispute(paid.intent);
    await world.stripe.webhooksIdle();
    expect(await usd(user)).toMatchObject({ available: '0.00', held: '0.00', owed: '25.00' });
    const other = await registerUser(world.server);
    expectProblem(await send(world.server, user, { recipientHandle: other.handle, amount: 1, currency: 'USD' }), 403, 'account_in_debt');

    await pay(await cardPayer(), user, 10);
    expect(await usd(user)).toMatchObject({ available: '0.00', held: '0.00', owed: '15.00' });

    world.stripe.closeDispute(dispute.id, 'won');
    await world.stripe.webhooksIdle();
    const after = await usd(user);
    expect(after.owed).toBe('0.00');
    // 25 taken, 10 received: what comes back repays the 15 owed and leaves 10.
    expect(minor(after.available) + minor(after.held)).toBe(1000n);
    const won = await world.server.request('GET', '/admin/disputes?status=won', { headers: operator });
    expect(JSON.stringify(won.body)).toContain(paid.id);
  });

  it('an operator refund without the fee, then one of part with the fee; retried with its key, made once', async () => {
    const { user } = await payee({ onboarded: false });
    const whole = await pay(payer, user, 20);
    const key = randomUUID();
    const first = await refund(whole.id, { reason: 'requested_by_customer', note: 'asked by phone' }, key);
    expect(first.status, first.text).toBe(200);
    expect(first.body.refund).toMatchObject({ transferId: whole.id, amount: '20.00', fee: '0.00', reason: 'requested_by_customer' });
    const again = await refund(whole.id, { reason: 'requested_by_customer', note: 'asked by phone' }, key);
    expect(again.body.refund.id).toBe(first.body.refund.id);
    await world.stripe.webhooksIdle();
    const atStripe = world.stripe.refunds().filter((r) => r.payment_intent === whole.intent);
    expect(atStripe).toEqual([
      expect.objectContaining({ amount: 2000, metadata: { peerpay_transfer_id: whole.id, peerpay_refund_id: first.body.refund.id } }),
    ]);
    expect(
      world.stripe
        .requests()
        .filter((r) => r.path === '/v1/refunds' && r.method === 'POST')
        .map((r) => r.idempotencyKey),
    ).toContain(first.body.refund.id);
    expect(await usd(user)).toMatchObject({ held: '0.00', available: '0.00', owed: '0.00' });

    const part = await pay(payer, user, 20);
    const withFee = await refund(part.id, { amount: 5, refundFee: true, reason: 'duplicate', note: 'charged twice' });
    expect(withFee.status, withFee.text).toBe(200);
    // The fee given back is the platform's (a share of it for part of the transfer), and goes to the card too.
    expect(withFee.body.refund.amount).toBe('5.00');
    const feeBack = minor(withFee.body.refund.fee);
    expect(feeBack > 0n && feeBack <= minor(part.fee)).toBe(true);
    await world.stripe.webhooksIdle();
    const partAtStripe = world.stripe.refunds().filter((r) => r.payment_intent === part.intent);
    expect(partAtStripe.map((r) => BigInt(r.amount))).toEqual([500n + feeBack]);
    expect(await usd(user)).toMatchObject({ held: '15.00', owed: '0.00' });
    expect(await eventTypes(user)).toContain('transfer.refunded');
    expect(await eventTypes(payer)).toContain('transfer.refunded');
  });

  it('a dashboard refund is booked once although refund.created and charge.refunded each come twice', async () => {
    const { user } = await payee({ onboarded: false });
    const paid = await pay(payer, user, 15);
    const made = world.stripe.refundFromDashboard(paid.intent, { amount: 600 });
    await world.stripe.webhooksIdle();
    expect(await usd(user)).toMatchObject({ held: '9.00', owed: '0.00' });
    for (const event of world.stripe
      .events()
      .filter((e) => ['refund.created', 'charge.refunded'].includes(e.type) && JSON.stringify(e.data.object).includes(paid.intent)))
      await world.stripe.deliver(event.id, { times: 2 });
    expect(await usd(user)).toMatchObject({ held: '9.00', owed: '0.00' });
    const history = await world.server.request('GET', '/transfers', { key: payer.key });
    expect(history.body.transfers.find((t: { id: string }) => t.id === paid.id)).toMatchObject({ refunded: '6.00' });
    const listed = await world.server.request('GET', '/admin/refunds', { headers: operator });
    expect(listed.status, listed.text).toBe(200);
    expect(JSON.stringify(listed.body).split(paid.id).length - 1).toBe(1);
    expect(made.metadata).toEqual({});
  });

  it('a refund that fails is undone, once, whichever of its three events comes first', async () => {
    const { user } = await payee({ onboarded: false });
    const paid = await pay(payer, user, 12);
    const made = await refund(paid.id, { reason: 'fraudulent', note: 'card reported stolen' });
    expect(made.status, made.text).toBe(200);
    await world.stripe.webhooksIdle();
    expect(await usd(user)).toMatchObject({ held: '0.00' });
    world.stripe.setWebhookMode('manual');
    try {
      const atStripe = world.stripe.refunds().find((r) => r.payment_intent === paid.intent)!;
      world.stripe.failRefund(atStripe.id);
      await world.stripe.deliverAll({ order: 'reverse' });
      for (const event of world.stripe.events().filter((e) => (e.data.object as { id?: string }).id === atStripe.id))
        await world.stripe.deliver(event.id);
    } finally {
      world.stripe.setWebhookMode('auto');
    }
    const undone = await usd(user);
    expect(undone.owed).toBe('0.00');
    expect(minor(undone.available) + minor(undone.held)).toBe(1200n);
    const listed = await world.server.request('GET', '/admin/refunds', { headers: operator });
    expect(JSON.stringify(listed.body)).toContain('"failed"');
  });

  it('a refund that failed, a dashboard refund and a dispute, told in the opposite order: each booked once with Stripe’s amount', async () => {
    const disputer = await cardPayer();
    const { user } = await payee({ onboarded: false });
    const paid = await pay(disputer, user, 20);
    const stale = world.stripe.refundFromDashboard(paid.intent, { amount: 300 });
    await world.stripe.webhooksIdle();
    world.stripe.setWebhookMode('manual');
    // At Stripe: the first refund fails, a second is made, then the rest of the charge is disputed.
    const { later, dispute } = (() => {
      try {
        world.stripe.failRefund(stale.id);
        return { later: world.stripe.refundFromDashboard(paid.intent, { amount: 200 }), dispute: world.stripe.openDispute(paid.intent) };
      } catch (error) {
        world.stripe.setWebhookMode('auto');
        throw error;
      }
    })();
    try {
      const about = (id: string) => world.stripe.events().filter((e) => (e.data.object as { id?: string }).id === id);
      const refunded = world.stripe
        .events()
        .filter((e) => e.type === 'charge.refunded' && JSON.stringify(e.data.object).includes(paid.intent));
      // peerpay hears of the dispute first, then of the second refund, and of the failure last.
      for (const event of [...about(dispute.id), ...about(later.id), ...refunded, ...about(stale.id)]) await world.stripe.deliver(event.id);
      await world.stripe.deliverAll();
    } finally {
      world.stripe.setWebhookMode('auto');
    }
    const mismatches = await cardRiskMismatches(world.server.deps.db, world.stripe);
    expect(mismatches.filter((m) => m.includes(stale.id) || m.includes(later.id) || m.includes(dispute.id))).toEqual([]);
    const booked = await world.server.deps.db
      .selectFrom('disputes')
      .select(['taken', 'fee_taken'])
      .where('processor_ref', '=', dispute.id)
      .executeTakeFirstOrThrow();
    expect(booked.taken + booked.fee_taken).toBe(BigInt(dispute.amount));
    // 20.00 received; the dispute and the second refund took all of it back, the failed refund nothing.
    expect(await usd(user)).toMatchObject({ available: '0.00', held: '0.00', owed: '0.00' });
  });

  it('an early fraud warning pauses the recipient’s payouts', async () => {
    const { user, account } = await payee();
    const paid = await pay(payer, user, 8);
    world.stripe.earlyFraudWarning(paid.intent, { namePaymentIntent: false });
    await world.stripe.webhooksIdle();
    await endHoldsAndPayOut();
    expect(stripeTransfersTo(account)).toEqual([]);
    expect(await usd(user)).toMatchObject({ available: '8.00' });
  });
});
