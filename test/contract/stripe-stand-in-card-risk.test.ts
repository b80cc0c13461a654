// The stand-in's card-risk side (DESIGN §16) that only it has: refunds made in the dashboard or
// failing later, disputes opened and closed, early fraud warnings (test controls, with Stripe's object
// shapes and events), transfer reversals, and the balance transactions all of them leave.
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISPUTE_FEE, type StripeStandIn } from '../fakes/stripe/index.js';
import { caught, loose, uniqueKey } from './stripe-api-scenarios.js';
import { type ContractTarget, standInTarget } from './stripe-targets.js';

describe('Stripe stand-in: card risk', () => {
  let target: ContractTarget;
  let standIn: StripeStandIn;
  let client: Stripe;
  beforeAll(async () => {
    ({ target, standIn } = await standInTarget());
    client = target.client();
  });
  afterAll(() => target.close());

  async function chargedIntent(amount = 2000, currency = 'usd'): Promise<Stripe.PaymentIntent> {
    const customer = await client.customers.create({ email: 'risk@peerpay.test' });
    const card = await target.savedCard(customer.id, 'succeeds');
    return client.paymentIntents.create({
      amount,
      currency,
      customer: customer.id,
      payment_method: card,
      confirm: true,
      off_session: true,
      metadata: { peerpay_transfer_id: 'tx_risk' },
    });
  }
  const eventsOf = (id: string) =>
    standIn
      .events()
      .filter(
        (e) =>
          (e.data.object as { id?: string; payment_intent?: string }).id === id ||
          (e.data.object as { payment_intent?: string }).payment_intent === id,
      );
  const typesOf = (id: string) => eventsOf(id).map((e) => e.type);
  const transactionsOf = (source: string) => standIn.balanceTransactions().filter((t) => t.source === source);

  describe('charges and refunds', () => {
    it('a succeeded card payment has a charge peerpay can read, with its balance transaction and Stripe fee', async () => {
      const intent = await chargedIntent(2000);
      const charge = await client.charges.retrieve(String(intent.latest_charge));
      expect(charge).toMatchObject({
        object: 'charge',
        amount: 2000,
        payment_intent: intent.id,
        refunded: false,
        disputed: false,
        status: 'succeeded',
      });
      expect(transactionsOf(charge.id)).toEqual([expect.objectContaining({ type: 'charge', amount: 2000, fee: 88, net: 1912 })]);
      const missing = await caught(client.charges.retrieve('ch_doesnotexist'), Stripe.errors.StripeInvalidRequestError);
      expect(missing).toMatchObject({ statusCode: 404, code: 'resource_missing' });
    });

    it("peerpay's refund emits refund.created and charge.refunded, naming the API request", async () => {
      const intent = await chargedIntent();
      const key = uniqueKey('refund-events');
      const refund = await client.refunds.create(
        { payment_intent: intent.id, amount: 500, metadata: { peerpay_refund_id: 'rf_9' } },
        { idempotencyKey: key },
      );
      const [created, refunded] = [standIn.events('refund.created').at(-1)!, standIn.events('charge.refunded').at(-1)!];
      expect(created.data.object).toMatchObject({ id: refund.id, status: 'succeeded', metadata: { peerpay_refund_id: 'rf_9' } });
      expect(created.request.idempotency_key).toBe(key);
      expect(refunded.data.object).toMatchObject({ object: 'charge', payment_intent: intent.id, amount_refunded: 500, refunded: false });
    });

    it('a dashboard refund has no peerpay metadata and no request; listed with the others', async () => {
      const intent = await chargedIntent(1500);
      const refund = standIn.refundFromDashboard(intent.id, { amount: 400 });
      expect(refund).toMatchObject({ payment_intent: intent.id, amount: 400, metadata: {}, status: 'succeeded' });
      expect(typesOf(intent.id)).toEqual(['payment_intent.succeeded', 'refund.created', 'charge.refunded']);
      expect(standIn.events('refund.created').at(-1)!.request).toEqual({ id: null, idempotency_key: null });
      const listed = await client.refunds.list({ payment_intent: intent.id });
      expect(listed.data.map((r) => r.id)).toEqual([refund.id]);
    });

    it('a refund that fails later: refund.updated, charge.refund.updated and refund.failed; its money back in the balance', async () => {
      const intent = await chargedIntent(1200);
      const refund = await client.refunds.create({ payment_intent: intent.id });
      const failed = standIn.failRefund(refund.id);
      expect(failed).toMatchObject({ status: 'failed', failure_reason: 'expired_or_canceled_card' });
      expect(typesOf(refund.id).slice(-3)).toEqual(['refund.updated', 'charge.refund.updated', 'refund.failed']);
      expect(standIn.events('refund.updated').at(-1)!.data.previous_attributes).toEqual({ status: 'succeeded' });
      expect(transactionsOf(refund.id).map((t) => [t.type, t.amount])).toEqual([
        ['refund', -1200],
        ['payment_failure_refund', 1200],
      ]);
      // The charge can be refunded again: the failed refund gave nothing back.
      expect((await client.charges.retrieve(String(intent.latest_charge))).amount_refunded).toBe(0);
      expect(() => standIn.failRefund(refund.id)).toThrow(/already failed/);
    });
  });

  describe('disputes', () => {
    it('a dispute withdraws the amount and the 15.00 fee; won, the amount comes back and the dispute closes', async () => {
      const intent = await chargedIntent(3000);
      const dispute = standIn.openDispute(intent.id, { reason: 'fraudulent' });
      expect(dispute).toMatchObject({
        object: 'dispute',
        amount: 3000,
        currency: 'usd',
        payment_intent: intent.id,
        reason: 'fraudulent',
        status: 'needs_response',
      });
      expect(dispute.balance_transactions).toEqual([
        expect.objectContaining({ amount: -3000, fee: DISPUTE_FEE, net: -3000 - DISPUTE_FEE, reporting_category: 'dispute' }),
      ]);
      expect(DISPUTE_FEE).toBe(1500);
      expect((await client.charges.retrieve(String(intent.latest_charge))).disputed).toBe(true);
      const refused = await caught(client.refunds.create({ payment_intent: intent.id }), Stripe.errors.StripeInvalidRequestError);
      expect(refused.code).toBe('charge_disputed');
      standIn.submitDisputeEvidence(dispute.id);
      const won = standIn.closeDispute(dispute.id, 'won');
      expect(won.status).toBe('won');
      expect(won.balance_transactions.map((t) => [t.amount, t.fee, t.reporting_category])).toEqual([
        [-3000, DISPUTE_FEE, 'dispute'],
        [3000, 0, 'dispute_reversal'],
      ]);
      expect(typesOf(dispute.id)).toEqual([
        'charge.dispute.created',
        'charge.dispute.funds_withdrawn',
        'charge.dispute.updated',
        'charge.dispute.funds_reinstated',
        'charge.dispute.closed',
      ]);
      expect(standIn.events('charge.dispute.closed').at(-1)!.data.previous_attributes).toEqual({ status: 'under_review' });
      expect(() => standIn.closeDispute(dispute.id, 'lost')).toThrow(/closed already/);
    });

    it('a lost dispute keeps the money withdrawn; a partial dispute takes what is left after a refund by default', async () => {
      const intent = await chargedIntent(2500);
      await client.refunds.create({ payment_intent: intent.id, amount: 500 });
      const dispute = standIn.openDispute(intent.id);
      expect(dispute.amount).toBe(2000);
      const lost = standIn.closeDispute(dispute.id, 'lost');
      expect(lost.status).toBe('lost');
      expect(lost.balance_transactions).toHaveLength(1);
      expect(typesOf(dispute.id)).toEqual(['charge.dispute.created', 'charge.dispute.funds_withdrawn', 'charge.dispute.closed']);
      expect(() => standIn.openDispute(intent.id)).toThrow(/already disputed/);
    });

    it('an inquiry moves no money and closes as warning_closed', async () => {
      const intent = await chargedIntent();
      const inquiry = standIn.openDispute(intent.id, { inquiry: true, reason: 'product_not_received' });
      expect(inquiry).toMatchObject({ status: 'warning_needs_response', balance_transactions: [], is_charge_refundable: true });
      expect(() => standIn.closeDispute(inquiry.id, 'lost')).toThrow(/inquiry/);
      expect(standIn.closeDispute(inquiry.id, 'won').status).toBe('warning_closed');
      expect(typesOf(inquiry.id)).toEqual(['charge.dispute.created', 'charge.dispute.closed']);
      expect(transactionsOf(inquiry.id)).toEqual([]);
    });

    it('an early fraud warning names the charge, and its PaymentIntent unless told not to', async () => {
      const intent = await chargedIntent();
      const warning = standIn.earlyFraudWarning(intent.id);
      expect(warning).toMatchObject({
        object: 'radar.early_fraud_warning',
        actionable: true,
        charge: intent.latest_charge,
        payment_intent: intent.id,
      });
      expect(warning.id).toMatch(/^issfr_/);
      const bare = standIn.earlyFraudWarning(intent.id, { namePaymentIntent: false });
      expect(bare.payment_intent).toBeNull();
      expect(
        standIn
          .events('radar.early_fraud_warning.created')
          .slice(-2)
          .map((e) => (e.data.object as { id: string }).id),
      ).toEqual([warning.id, bare.id]);
    });
  });

  describe('transfer reversals', () => {
    async function transfer(amount: number): Promise<Stripe.Transfer> {
      const account = await client.accounts.create({
        type: 'express',
        email: 'payee@peerpay.test',
        capabilities: { transfers: { requested: true } },
      });
      standIn.completeOnboarding(account.id);
      return client.transfers.create({ amount, currency: 'usd', destination: account.id, metadata: { peerpay_payout_id: 'po_1' } });
    }

    it('reverses part, then the rest (reversed), idempotently; more than is left is refused', async () => {
      const paid = await transfer(2000);
      const key = uniqueKey('reversal');
      const params = { amount: 500, metadata: { peerpay_payout_id: 'po_1' } };
      const first = await client.transfers.createReversal(paid.id, params, { idempotencyKey: key });
      expect(first).toMatchObject({
        object: 'transfer_reversal',
        amount: 500,
        currency: 'usd',
        transfer: paid.id,
        metadata: { peerpay_payout_id: 'po_1' },
      });
      expect(first.id).toMatch(/^trr_/);
      expect((await client.transfers.createReversal(paid.id, params, { idempotencyKey: key })).id).toBe(first.id);
      const tooMuch = await caught(client.transfers.createReversal(paid.id, { amount: 1501 }), Stripe.errors.StripeInvalidRequestError);
      expect(tooMuch).toMatchObject({ statusCode: 400, param: 'amount' });
      await client.transfers.createReversal(paid.id);
      const after = standIn.transfers().find((t) => t.id === paid.id)!;
      expect(after).toMatchObject({ amount_reversed: 2000, reversed: true });
      const done = await caught(client.transfers.createReversal(paid.id, { amount: 1 }), Stripe.errors.StripeInvalidRequestError);
      expect(done.code).toBe('transfer_already_reversed');
      expect(transactionsOf(paid.id).map((t) => [t.type, t.amount])).toEqual([['transfer', -2000]]);
      expect(
        standIn
          .balanceTransactions()
          .filter(
            (t) => t.type === 'transfer_refund' && standIn.transferReversals().some((r) => r.id === t.source && r.transfer === paid.id),
          )
          .map((t) => t.amount),
      ).toEqual([500, 1500]);
    });

    it('refuses an unknown parameter and an unknown transfer', async () => {
      const paid = await transfer(1000);
      const unknown = await caught(
        client.transfers.createReversal(paid.id, loose({ amount: 100, reason: 'x' })),
        Stripe.errors.StripeInvalidRequestError,
      );
      expect(unknown).toMatchObject({ code: 'parameter_unknown', param: 'reason' });
      const missing = await caught(
        client.transfers.createReversal('tr_doesnotexist', { amount: 100 }),
        Stripe.errors.StripeInvalidRequestError,
      );
      expect(missing).toMatchObject({ statusCode: 404, code: 'resource_missing' });
    });
  });

  it('balance transactions page through everything in a time window: charges, refunds, disputes, transfers and reversals', async () => {
    const all = standIn.balanceTransactions();
    const from = all[0]!.created;
    const seen: string[] = [];
    let startingAfter: string | undefined;
    for (;;) {
      const page = await client.balanceTransactions.list({
        created: { gte: from, lt: from + 3600 },
        limit: 7,
        ...(startingAfter ? { starting_after: startingAfter } : {}),
      });
      seen.push(...page.data.map((t) => t.id));
      if (!page.has_more) break;
      startingAfter = page.data.at(-1)!.id;
    }
    expect(seen).toEqual(all.map((t) => t.id).reverse());
    expect(new Set(all.map((t) => t.type))).toEqual(
      new Set(['charge', 'refund', 'payment_failure_refund', 'adjustment', 'transfer', 'transfer_refund']),
    );
    const none = await client.balanceTransactions.list({ created: { lt: from } });
    expect(none.data).toEqual([]);
  });

  it('expand[]=data.source names the object of each balance transaction (a charge with its PaymentIntent); an unknown field is refused', async () => {
    const page = await client.balanceTransactions.list({ limit: 100, expand: ['data.source'] });
    const charge = page.data.find((t) => t.type === 'charge')!;
    expect(charge.source).toMatchObject({ object: 'charge', payment_intent: expect.stringMatching(/^pi_/) });
    const refund = page.data.find((t) => t.type === 'refund')!;
    expect(refund.source).toMatchObject({ object: 'refund', id: expect.stringMatching(/^re_/) });
    await expect(client.balanceTransactions.list({ expand: ['data.nothing'] })).rejects.toMatchObject({
      statusCode: 400,
      message: 'This property cannot be expanded (data.nothing).',
    });
    await expect(client.balanceTransactions.list({ unknown_param: 1 } as never)).rejects.toMatchObject({ statusCode: 400 });
  });
});
