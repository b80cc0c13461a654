// Stripe's Refund and Dispute objects read into peerpay's terms (ProcessorRefund, ProcessorDispute).
// A Stripe object peerpay cannot place (no PaymentIntent, a currency peerpay does not hold) reads as
// null, so that the webhook reader can acknowledge it as malformed instead of failing the delivery.
import type Stripe from 'stripe';
import { type FiatCurrency, isFiatCurrency } from '../../../money/assets.js';
import type { DisputeStatus, ProcessorDispute, ProcessorRefund, RefundStatus } from '../payment-processor.js';

export function fiatCurrencyOf(stripeCurrency: unknown): FiatCurrency | null {
  if (typeof stripeCurrency !== 'string') return null;
  const upper = stripeCurrency.toUpperCase();
  return isFiatCurrency(upper) ? upper : null;
}

export function idOf(value: string | { id: string } | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : typeof value.id === 'string' ? value.id : null;
}

function minorUnits(value: unknown): bigint | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : null;
}

/**
 * Stripe's refund statuses in peerpay's three: `requires_action` (the customer must give bank
 * details) still goes ahead, so it is pending; `canceled` never gave money back, so it counts as failed.
 */
export function refundStatusOf(status: string | null | undefined): RefundStatus | null {
  switch (status) {
    case 'pending':
    case 'requires_action':
      return 'pending';
    case 'succeeded':
      return 'succeeded';
    case 'failed':
    case 'canceled':
      return 'failed';
    default:
      return null;
  }
}

export function processorRefundOf(refund: Stripe.Refund): ProcessorRefund | null {
  const chargeRef = idOf(refund.payment_intent);
  const currency = fiatCurrencyOf(refund.currency);
  const amountMinor = minorUnits(refund.amount);
  const status = refundStatusOf(refund.status);
  if (typeof refund.id !== 'string' || !chargeRef || !currency || amountMinor === null || !status) return null;
  const refundId = refund.metadata?.peerpay_refund_id;
  return { refundRef: refund.id, chargeRef, currency, amountMinor, status, refundId: refundId ? refundId : null };
}

/**
 * Stripe's dispute statuses in peerpay's three. An inquiry (`warning_*`) closed without a chargeback
 * and a dispute the network `prevented` took no money for good, so both count as won.
 */
export function disputeStatusOf(status: string | null | undefined): DisputeStatus | null {
  switch (status) {
    case 'warning_needs_response':
    case 'warning_under_review':
    case 'needs_response':
    case 'under_review':
      return 'open';
    case 'won':
    case 'warning_closed':
    case 'prevented':
      return 'won';
    case 'lost':
      return 'lost';
    default:
      return null;
  }
}

/**
 * Stripe's dispute fee: the fees of the dispute's balance transactions in the dispute's currency
 * (the withdrawal charges it; a reinstatement may give it back as a negative fee). Null when the
 * event names none, or only in another settlement currency, which peerpay cannot book here.
 */
function disputeFeeOf(dispute: Stripe.Dispute, currency: FiatCurrency): bigint | null {
  const transactions = Array.isArray(dispute.balance_transactions) ? dispute.balance_transactions : [];
  const same = transactions.filter((t) => fiatCurrencyOf(t.currency) === currency && Number.isSafeInteger(t.fee));
  if (same.length === 0) return null;
  const fee = same.reduce((sum, t) => sum + BigInt(t.fee), 0n);
  return fee > 0n ? fee : 0n;
}

export function processorDisputeOf(dispute: Stripe.Dispute): ProcessorDispute | null {
  const chargeRef = idOf(dispute.payment_intent);
  const currency = fiatCurrencyOf(dispute.currency);
  const amountMinor = minorUnits(dispute.amount);
  const status = disputeStatusOf(dispute.status);
  if (typeof dispute.id !== 'string' || !chargeRef || !currency || amountMinor === null || !status) return null;
  return {
    disputeRef: dispute.id,
    chargeRef,
    currency,
    amountMinor,
    reason: typeof dispute.reason === 'string' ? dispute.reason : 'general',
    status,
    feeMinor: disputeFeeOf(dispute, currency),
  };
}

/** A Stripe object that exists but can never be applied (a SetupIntent that saved nothing). */
export class MalformedStripeObjectError extends Error {
  override name = 'MalformedStripeObjectError';
}
