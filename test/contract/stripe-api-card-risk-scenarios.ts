// The refund and balance-transaction calls peerpay makes for card risk (DESIGN §16), as scenarios
// that hold on Stripe's real test mode as well as on the stand-in: a card refund succeeds at once,
// a refund names its PaymentIntent and metadata, a refund beyond what is left is refused, refunds are
// listed by PaymentIntent newest first with cursors, and balance transactions are listed by time.
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { caught, loose, uniqueKey } from './stripe-api-scenarios.js';
import type { ContractTarget } from './stripe-targets.js';

export function describeStripeCardRiskContract(getTarget: () => ContractTarget): void {
  const client = () => getTarget().client();

  async function chargedIntent(amount = 2000): Promise<Stripe.PaymentIntent> {
    const customer = await client().customers.create({ email: `refund-${Date.now()}@peerpay.test` });
    const card = await getTarget().savedCard(customer.id, 'succeeds');
    return client().paymentIntents.create({
      amount,
      currency: 'usd',
      customer: customer.id,
      payment_method: card,
      payment_method_types: ['card'],
      confirm: true,
      off_session: true,
      metadata: { peerpay_transfer_id: 'tx_refund' },
    });
  }

  describe('refunds', () => {
    it('refunds part of a card charge by its PaymentIntent: succeeded, with peerpay metadata; a retry with the key replays it', async () => {
      const intent = await chargedIntent();
      const key = uniqueKey('refund');
      const params: Stripe.RefundCreateParams = {
        payment_intent: intent.id,
        amount: 700,
        reason: 'requested_by_customer',
        metadata: { peerpay_transfer_id: 'tx_refund', peerpay_refund_id: 'rf_1' },
      };
      const refund = await client().refunds.create(params, { idempotencyKey: key });
      expect(refund).toMatchObject({
        object: 'refund',
        amount: 700,
        currency: 'usd',
        payment_intent: intent.id,
        status: 'succeeded',
        reason: 'requested_by_customer',
        metadata: { peerpay_transfer_id: 'tx_refund', peerpay_refund_id: 'rf_1' },
      });
      expect(refund.id).toMatch(/^re_/);
      expect(refund.charge).toBe(intent.latest_charge);
      const again = await client().refunds.create(params, { idempotencyKey: key });
      expect(again.id).toBe(refund.id);
      expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');
    });

    it('refuses a refund beyond what is left of the charge, and one of a fully refunded charge', async () => {
      const intent = await chargedIntent(1000);
      await client().refunds.create({ payment_intent: intent.id, amount: 600 });
      const tooMuch = await caught(
        client().refunds.create({ payment_intent: intent.id, amount: 500 }),
        Stripe.errors.StripeInvalidRequestError,
      );
      expect(tooMuch).toMatchObject({ statusCode: 400, param: 'amount' });
      expect(tooMuch.message).toMatch(/greater than unrefunded amount/);
      await client().refunds.create({ payment_intent: intent.id });
      const again = await caught(
        client().refunds.create({ payment_intent: intent.id, amount: 1 }),
        Stripe.errors.StripeInvalidRequestError,
      );
      expect(again).toMatchObject({ statusCode: 400, code: 'charge_already_refunded' });
    });

    it('refuses an unknown parameter, a reason Stripe does not know, and a PaymentIntent that does not exist', async () => {
      const intent = await chargedIntent();
      const unknown = await caught(
        client().refunds.create(loose({ payment_intent: intent.id, refund_fee: 'true' })),
        Stripe.errors.StripeInvalidRequestError,
      );
      expect(unknown).toMatchObject({ code: 'parameter_unknown', param: 'refund_fee' });
      const reason = await caught(
        client().refunds.create(loose({ payment_intent: intent.id, reason: 'changed_mind' })),
        Stripe.errors.StripeInvalidRequestError,
      );
      expect(reason).toMatchObject({ statusCode: 400, param: 'reason' });
      const missing = await caught(
        client().refunds.create({ payment_intent: 'pi_doesnotexist000000000' }),
        Stripe.errors.StripeInvalidRequestError,
      );
      expect(missing).toMatchObject({ statusCode: 400, code: 'resource_missing', param: 'payment_intent' });
    });

    it('lists the refunds of a PaymentIntent newest first, a page at a time', async () => {
      const intent = await chargedIntent(3000);
      const made: string[] = [];
      for (const amount of [100, 200, 300]) made.push((await client().refunds.create({ payment_intent: intent.id, amount })).id);
      const first = await client().refunds.list({ payment_intent: intent.id, limit: 2 });
      expect(first).toMatchObject({ object: 'list', has_more: true, url: '/v1/refunds' });
      expect(first.data.map((r) => r.id)).toEqual([made[2], made[1]]);
      const second = await client().refunds.list({ payment_intent: intent.id, limit: 2, starting_after: first.data[1]!.id });
      expect(second.data.map((r) => r.id)).toEqual([made[0]]);
      expect(second.has_more).toBe(false);
      const other = await chargedIntent();
      expect((await client().refunds.list({ payment_intent: other.id })).data).toEqual([]);
    });
  });

  describe('balance transactions', () => {
    it('lists by created range, newest first, with limit and starting_after; a charge and its refund are there', async () => {
      const intent = await chargedIntent(4000);
      const refund = await client().refunds.create({ payment_intent: intent.id, amount: 1000 });
      const since = (await client().charges.retrieve(String(intent.latest_charge))).created - 1;
      const listed = await client().balanceTransactions.list({ created: { gte: since, lt: since + 3600 }, limit: 100 });
      expect(listed.object).toBe('list');
      const charge = listed.data.find((t) => t.source === intent.latest_charge);
      expect(charge).toMatchObject({
        object: 'balance_transaction',
        amount: 4000,
        currency: 'usd',
        type: 'charge',
        reporting_category: 'charge',
      });
      expect(charge!.net).toBe(4000 - charge!.fee);
      expect(listed.data.find((t) => t.source === refund.id)).toMatchObject({
        amount: -1000,
        type: 'refund',
        reporting_category: 'refund',
      });
      const created = listed.data.map((t) => t.created);
      expect([...created].sort((a, b) => b - a)).toEqual(created);
      const one = await client().balanceTransactions.list({ created: { gte: since }, limit: 1 });
      expect(one.data).toHaveLength(1);
      const next = await client().balanceTransactions.list({ created: { gte: since }, limit: 1, starting_after: one.data[0]!.id });
      expect(next.data[0]?.id).not.toBe(one.data[0]!.id);
    });

    it('refuses a limit over 100 and an unknown range key', async () => {
      const limit = await caught(client().balanceTransactions.list({ limit: 101 }), Stripe.errors.StripeInvalidRequestError);
      expect(limit).toMatchObject({ statusCode: 400, param: 'limit' });
      const range = await caught(
        client().balanceTransactions.list(loose({ created: { after: 1 } })),
        Stripe.errors.StripeInvalidRequestError,
      );
      expect(range).toMatchObject({ statusCode: 400, param: 'created[after]' });
    });
  });
}
