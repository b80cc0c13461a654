// Refunds: POST /v1/refunds (peerpay's, with metadata and an Idempotency-Key), GET /v1/refunds
// (by payment_intent or charge, newest first), and the test controls for what happens outside the
// API: a refund made in Stripe's dashboard, and a refund that fails later (the card closed). A card
// refund succeeds at once, as in Stripe's test mode. Each change emits the events Stripe emits:
// refund.created and charge.refunded when made; refund.updated, charge.refund.updated and
// refund.failed when it fails (the money comes back to the platform balance).
import { invalidRequest, noSuch, parameterError } from '../errors.js';
import { newId } from '../ids.js';
import { createdRange, listPage, listSpec } from '../lists.js';
import { integer, metadata, readParams, string } from '../params.js';
import { defineRoute } from '../routes.js';
import { type Context, snapshot, unixSeconds } from '../store.js';
import { recordBalanceTransaction } from './balance-transactions.js';
import type { Charge } from './charges.js';

export type RefundReason = 'duplicate' | 'fraudulent' | 'requested_by_customer';
export type RefundFailureReason = 'expired_or_canceled_card' | 'lost_or_stolen_card' | 'unknown';

export interface Refund {
  id: string;
  object: 'refund';
  amount: number;
  balance_transaction: string;
  charge: string;
  created: number;
  currency: string;
  failure_balance_transaction?: string;
  failure_reason?: RefundFailureReason;
  metadata: Record<string, string>;
  payment_intent: string;
  reason: RefundReason | null;
  receipt_number: null;
  source_transfer_reversal: null;
  status: 'pending' | 'succeeded' | 'failed' | 'canceled';
  transfer_reversal: null;
}

const REASONS = ['duplicate', 'fraudulent', 'requested_by_customer'] as const;
const createSpec = {
  payment_intent: string(),
  charge: string(),
  amount: integer(),
  reason: string({ oneOf: REASONS }),
  metadata: metadata(),
};
const listRefundsSpec = { ...listSpec, payment_intent: string(), charge: string(), created: createdRange() };

function display(amount: number, currency: string): string {
  return currency === 'jpy' ? `¥${amount}` : `${(amount / 100).toFixed(2)} ${currency}`;
}

/** The charge a refund request names, refundable as Stripe checks it. */
function refundableCharge(ctx: Context, input: { payment_intent?: string; charge?: string }): Charge {
  if (input.charge !== undefined) {
    const charge = ctx.store.charges.get(input.charge);
    if (charge === undefined) throw noSuch('charge', input.charge, 'charge', 400);
    if (input.payment_intent !== undefined && charge.payment_intent !== input.payment_intent)
      throw invalidRequest(`Charge ${charge.id} does not belong to PaymentIntent ${input.payment_intent}.`, { param: 'charge' });
    return charge;
  }
  const intentId = input.payment_intent ?? '';
  const intent = ctx.store.paymentIntents.get(intentId);
  if (intent === undefined) throw noSuch('payment_intent', intentId, 'payment_intent', 400);
  const charge = intent.latest_charge === null ? undefined : ctx.store.charges.get(intent.latest_charge);
  if (intent.status !== 'succeeded' || charge === undefined)
    throw invalidRequest(`This PaymentIntent (${intentId}) does not have a successful charge to refund.`, {
      code: 'charge_not_refundable',
      param: 'payment_intent',
    });
  return charge;
}

export function makeRefund(
  ctx: Context,
  charge: Charge,
  input: { amount?: number; reason?: RefundReason; metadata?: Record<string, string> },
): Refund {
  if (charge.disputed)
    throw invalidRequest(`Charge ${charge.id} has been charged back; cannot issue a refund.`, { code: 'charge_disputed' });
  const left = charge.amount - charge.amount_refunded;
  if (left === 0) throw invalidRequest(`Charge ${charge.id} has already been refunded.`, { code: 'charge_already_refunded' });
  const amount = input.amount ?? left;
  if (amount > left)
    throw invalidRequest(
      `Refund amount (${display(amount, charge.currency)}) is greater than unrefunded amount on charge (${display(left, charge.currency)})`,
      { param: 'amount' },
    );
  const id = newId('re');
  const transaction = recordBalanceTransaction(ctx, {
    amount: -amount,
    currency: charge.currency,
    source: id,
    type: 'refund',
    category: 'refund',
  });
  const refund: Refund = {
    id,
    object: 'refund',
    amount,
    balance_transaction: transaction.id,
    charge: charge.id,
    created: unixSeconds(ctx.clock),
    currency: charge.currency,
    metadata: input.metadata ?? {},
    payment_intent: charge.payment_intent,
    reason: input.reason ?? null,
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
  };
  ctx.store.refunds.set(id, refund);
  charge.amount_refunded += amount;
  charge.refunded = charge.amount_refunded === charge.amount;
  ctx.emit('refund.created', refund);
  ctx.emit('charge.refunded', charge);
  return refund;
}

/** Test control: a refund made in Stripe's dashboard (no peerpay metadata, no API request of peerpay's). */
export function refundFromDashboard(
  ctx: Context,
  paymentIntentId: string,
  options: { amount?: number; reason?: RefundReason } = {},
): Refund {
  const charge = refundableCharge(ctx, { payment_intent: paymentIntentId });
  return snapshot(makeRefund(ctx, charge, { ...options, metadata: {} }));
}

/** Test control: a refund fails after it was made (the card was closed); its money returns to the balance. */
export function failRefund(ctx: Context, refundId: string, reason: RefundFailureReason = 'expired_or_canceled_card'): Refund {
  const refund = ctx.store.refunds.get(refundId);
  if (refund === undefined) throw new Error(`Stripe stand-in: no refund ${refundId}`);
  if (refund.status === 'failed' || refund.status === 'canceled')
    throw new Error(`Stripe stand-in: refund ${refundId} is already ${refund.status}`);
  const charge = ctx.store.charges.get(refund.charge);
  if (charge === undefined) throw new Error(`Stripe stand-in: refund ${refundId} has no charge`);
  const previous = { status: refund.status };
  const transaction = recordBalanceTransaction(ctx, {
    amount: refund.amount,
    currency: refund.currency,
    source: refund.id,
    type: 'payment_failure_refund',
    category: 'refund_failure',
  });
  refund.status = 'failed';
  refund.failure_reason = reason;
  refund.failure_balance_transaction = transaction.id;
  charge.amount_refunded -= refund.amount;
  charge.refunded = false;
  ctx.emit('refund.updated', refund, previous);
  ctx.emit('charge.refund.updated', refund, previous);
  ctx.emit('refund.failed', refund);
  return snapshot(refund);
}

export const refundRoutes = [
  defineRoute({
    method: 'POST',
    pattern: /^\/v1\/refunds$/,
    validate(params) {
      const input = readParams(createSpec, params);
      if (input.payment_intent === undefined && input.charge === undefined)
        throw parameterError('One of the following params should be provided for this request: payment_intent or charge.', {
          code: 'parameter_missing',
        });
      if (input.amount !== undefined && input.amount < 1)
        throw parameterError('This value must be greater than or equal to 1.', { code: 'parameter_invalid_integer', param: 'amount' });
      return input;
    },
    execute(input, ctx) {
      return snapshot(makeRefund(ctx, refundableCharge(ctx, input), input));
    },
  }),
  defineRoute({
    method: 'GET',
    pattern: /^\/v1\/refunds$/,
    validate: (params) => readParams(listRefundsSpec, params),
    execute(input, ctx) {
      const all = [...ctx.store.refunds.values()].filter(
        (r) =>
          (input.payment_intent === undefined || r.payment_intent === input.payment_intent) &&
          (input.charge === undefined || r.charge === input.charge),
      );
      const page = listPage(all, input, '/v1/refunds', 'refund');
      return { ...page, data: page.data.map((r) => snapshot(r)) };
    },
  }),
  defineRoute({
    method: 'GET',
    pattern: /^\/v1\/refunds\/(?<id>[^/]+)$/,
    validate: (params, id) => ({ ...readParams({}, params), id: id ?? '' }),
    execute(input, ctx) {
      const refund = ctx.store.refunds.get(input.id);
      if (refund === undefined) throw noSuch('refund', input.id, 'id', 404);
      return snapshot(refund);
    },
  }),
];
