// Stripe's card-risk events as peerpay's webhook reader reads them, delivered by the stand-in with
// Stripe's object shapes and signatures: refunds (peerpay's, the dashboard's, failed), disputes
// (statuses mapped to open/won/lost, the dispute fee from balance transactions), early fraud
// warnings (with or without their PaymentIntent), and the StripeProcessor's refund, listing and
// payout reversal calls with their Idempotency-Keys.
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStripeClient } from '../../src/adapters/processor/stripe/stripe-client.js';
import { StripeProcessor } from '../../src/adapters/processor/stripe/stripe-processor.js';
import { createStripeWebhookReader, type StripeWebhookReader } from '../../src/adapters/processor/stripe/stripe-webhooks.js';
import { startStripeStandIn, type StripeStandIn } from '../fakes/stripe/index.js';

const SECRET_KEY = 'sk_test_cardRiskEvents0123456789';
const WEBHOOK_SECRET = 'whsec_Y2FyZCByaXNrIGV2ZW50cw==';

describe('Stripe card-risk events and calls', () => {
  let standIn: StripeStandIn;
  let stripe: Stripe;
  let processor: StripeProcessor;
  let reader: StripeWebhookReader;
  beforeAll(async () => {
    standIn = await startStripeStandIn({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, webhookMode: 'manual' });
    stripe = createStripeClient({ secretKey: SECRET_KEY, apiBase: standIn.apiBase, requestTimeoutMs: 2000 });
    const clock = { now: () => new Date() };
    processor = new StripeProcessor({ stripe, clock });
    reader = createStripeWebhookReader({ stripe, processor, webhookSecret: WEBHOOK_SECRET, clock });
  });
  afterAll(() => standIn.close());

  async function chargedIntent(amount = 2000): Promise<string> {
    const customer = await stripe.customers.create({ email: 'risk@peerpay.test' });
    const session = await stripe.checkout.sessions.create({
      mode: 'setup',
      payment_method_types: ['card'],
      customer: customer.id,
      success_url: 'https://peerpay.test/done',
    });
    const card = standIn.completeCheckoutSession(session.id, { paymentMethod: 'pm_card_visa' }).paymentMethod.id;
    const intent = await stripe.paymentIntents.create({
      amount,
      currency: 'usd',
      customer: customer.id,
      payment_method: card,
      confirm: true,
      off_session: true,
    });
    return intent.id;
  }
  /** Reads the newest event of a type exactly as it would be delivered. */
  function readLatest(type: Parameters<StripeStandIn['events']>[0]) {
    const event = standIn.events(type).at(-1)!;
    const payload = standIn.eventPayload(event.id);
    return reader.read(Buffer.from(payload), standIn.signPayload(payload));
  }

  it("refund(): POST /v1/refunds with peerpay metadata and the refund id as Idempotency-Key; read back as peerpay's", async () => {
    const intent = await chargedIntent();
    const input = {
      chargeRef: intent,
      currency: 'USD' as const,
      amountMinor: 750n,
      reason: 'fraudulent' as const,
      transferId: 'tr_peer_1',
      refundId: 'rf_peer_1',
      idempotencyKey: 'rf_peer_1',
    };
    const refund = await processor.refund(input);
    expect(refund).toMatchObject({ chargeRef: intent, currency: 'USD', amountMinor: 750n, status: 'succeeded', refundId: 'rf_peer_1' });
    expect(await processor.refund(input)).toEqual(refund);
    const calls = standIn.requests().filter((r) => r.path === '/v1/refunds' && r.method === 'POST');
    expect(calls.map((c) => [c.idempotencyKey, c.replayed])).toEqual([
      ['rf_peer_1', false],
      ['rf_peer_1', true],
    ]);
    expect(calls[0]!.params).toMatchObject({
      payment_intent: intent,
      amount: '750',
      reason: 'fraudulent',
      metadata: { peerpay_transfer_id: 'tr_peer_1', peerpay_refund_id: 'rf_peer_1' },
    });
    expect(await readLatest('refund.created')).toMatchObject({
      kind: 'refunds_changed',
      chargeRef: intent,
      refunds: [{ refundRef: refund.refundRef, refundId: 'rf_peer_1', status: 'succeeded' }],
    });
  });

  it('a retry after a lost answer (503) uses the same key and refunds once', async () => {
    const intent = await chargedIntent();
    standIn.failNext({ method: 'POST', path: '/v1/refunds', fault: 503, when: 'after' });
    const refund = await processor.refund({
      chargeRef: intent,
      currency: 'USD',
      amountMinor: 100n,
      reason: 'duplicate',
      transferId: 't',
      refundId: 'rf_retry',
      idempotencyKey: 'rf_retry',
    });
    expect(standIn.refunds().filter((r) => r.payment_intent === intent)).toHaveLength(1);
    expect(refund.refundId).toBe('rf_retry');
  });

  it('a refund Stripe refuses (the charge is disputed, or less is left than asked) is failed, not an unknown outcome to retry for ever', async () => {
    const intent = await chargedIntent(1000);
    const ask = (refundId: string, amountMinor: bigint) =>
      processor.refund({
        chargeRef: intent,
        currency: 'USD',
        amountMinor,
        reason: 'requested_by_customer',
        transferId: 't',
        refundId,
        idempotencyKey: refundId,
      });
    expect(await ask('rf_too_much', 1001n)).toMatchObject({ status: 'failed', refundRef: '', refundId: 'rf_too_much', amountMinor: 1001n });
    standIn.openDispute(intent);
    expect(await ask('rf_disputed', 100n)).toMatchObject({ status: 'failed', refundRef: '' });
    expect(standIn.refunds().filter((r) => r.payment_intent === intent)).toEqual([]);
    // Stripe unreachable is not a refusal: the caller keeps its refund pending and asks again.
    standIn.failNext({ method: 'POST', path: '/v1/refunds', fault: 503, when: 'before', count: 3 });
    await expect(ask('rf_unanswered', 100n)).rejects.toThrow(/refunds.create/);
  });

  it("charge.refunded lists every refund of the PaymentIntent, the dashboard's without a peerpay id; listRefunds pages through", async () => {
    const intent = await chargedIntent(5000);
    for (let i = 0; i < 3; i += 1) standIn.refundFromDashboard(intent, { amount: 100 });
    const event = await readLatest('charge.refunded');
    expect(event).toMatchObject({ kind: 'refunds_changed', chargeRef: intent });
    if (event.kind !== 'refunds_changed') throw new Error(event.kind);
    const refunds = (event as unknown as { refunds: { refundId: string | null; amountMinor: bigint }[] }).refunds;
    expect(refunds).toHaveLength(3);
    expect(refunds.every((r) => r.refundId === null && r.amountMinor === 100n)).toBe(true);
    expect(await processor.listRefunds(intent)).toHaveLength(3);
  });

  it('a refund that fails reads as failed from each of its three events', async () => {
    const intent = await chargedIntent();
    const refund = standIn.refundFromDashboard(intent);
    standIn.failRefund(refund.id);
    for (const type of ['refund.updated', 'charge.refund.updated', 'refund.failed'] as const) {
      expect(await readLatest(type), type).toMatchObject({
        kind: 'refunds_changed',
        refunds: [{ refundRef: refund.id, status: 'failed' }],
      });
    }
  });

  it('disputes: open with the 15.00 fee from its balance transactions, won, lost; an inquiry closed is won; funds movements ignored', async () => {
    const won = standIn.openDispute(await chargedIntent(3000), { reason: 'fraudulent' });
    expect(await readLatest('charge.dispute.created')).toMatchObject({
      kind: 'dispute_changed',
      dispute: {
        disputeRef: won.id,
        chargeRef: won.payment_intent,
        currency: 'USD',
        amountMinor: 3000n,
        reason: 'fraudulent',
        status: 'open',
        feeMinor: 1500n,
      },
    });
    expect(await readLatest('charge.dispute.funds_withdrawn')).toMatchObject({ kind: 'ignored' });
    standIn.submitDisputeEvidence(won.id);
    expect(await readLatest('charge.dispute.updated')).toMatchObject({ dispute: { status: 'open' } });
    standIn.closeDispute(won.id, 'won');
    expect(await readLatest('charge.dispute.closed')).toMatchObject({ dispute: { disputeRef: won.id, status: 'won', feeMinor: 1500n } });
    const lost = standIn.openDispute(await chargedIntent());
    standIn.closeDispute(lost.id, 'lost');
    expect(await readLatest('charge.dispute.closed')).toMatchObject({ dispute: { disputeRef: lost.id, status: 'lost' } });
    const inquiry = standIn.openDispute(await chargedIntent(), { inquiry: true });
    expect(await readLatest('charge.dispute.created')).toMatchObject({
      dispute: { disputeRef: inquiry.id, status: 'open', feeMinor: null },
    });
    standIn.closeDispute(inquiry.id, 'won');
    expect(await readLatest('charge.dispute.closed')).toMatchObject({ dispute: { disputeRef: inquiry.id, status: 'won' } });
  });

  it('an early fraud warning names its PaymentIntent; one naming only the charge is looked up (GET /v1/charges/{id})', async () => {
    const intent = await chargedIntent();
    const warning = standIn.earlyFraudWarning(intent);
    expect(await readLatest('radar.early_fraud_warning.created')).toMatchObject({
      kind: 'early_fraud_warning',
      warningRef: warning.id,
      chargeRef: intent,
    });
    const bare = standIn.earlyFraudWarning(intent, { namePaymentIntent: false });
    const before = standIn.requests().filter((r) => r.path.startsWith('/v1/charges/')).length;
    expect(await readLatest('radar.early_fraud_warning.created')).toMatchObject({
      kind: 'early_fraud_warning',
      warningRef: bare.id,
      chargeRef: intent,
    });
    expect(standIn.requests().filter((r) => r.path.startsWith('/v1/charges/')).length).toBe(before + 1);
  });

  it('reversePayout(): POST /v1/transfers/{id}/reversals with the payout id, idempotently', async () => {
    const account = await stripe.accounts.create({
      type: 'express',
      email: 'p@peerpay.test',
      capabilities: { transfers: { requested: true } },
    });
    standIn.completeOnboarding(account.id);
    const paid = await processor.payout({ payoutAccountRef: account.id, currency: 'USD', amountMinor: 2000n, idempotencyKey: 'po_rev_1' });
    const input = {
      payoutRef: paid.payoutRef,
      currency: 'USD' as const,
      amountMinor: 800n,
      payoutId: 'po_rev_1',
      idempotencyKey: 'po_rev_1:reversal:1',
    };
    const first = await processor.reversePayout(input);
    expect(first.reversalRef).toMatch(/^trr_/);
    expect(await processor.reversePayout(input)).toEqual(first);
    expect(standIn.transferReversals()).toEqual([
      expect.objectContaining({ id: first.reversalRef, amount: 800, metadata: { peerpay_payout_id: 'po_rev_1' } }),
    ]);
  });
});
