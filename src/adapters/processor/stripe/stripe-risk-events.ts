// Stripe's card-risk events (DESIGN §16) read into CardRiskEvent: refunds (made by peerpay or in
// Stripe's dashboard), disputes and early fraud warnings. Everything is read from the signed payload
// except a Charge's refunds (listed from Stripe, since `charge.refunded` does not carry them all)
// and the PaymentIntent of a warning that names only its charge. An object peerpay cannot place
// reads as `malformed`: acknowledged with an error log, never a failure Stripe would retry for days.
import type Stripe from 'stripe';
import type { CardRiskEvent } from '../payment-processor.js';
import { idOf, processorDisputeOf, processorRefundOf } from './stripe-risk-objects.js';

/** What the card-risk events need of Stripe beyond the payload. */
export interface CardRiskLookups {
  listRefunds(chargeRef: string): Promise<CardRiskRefunds>;
  paymentIntentOfCharge(chargeId: string): Promise<string | null>;
}
type CardRiskRefunds = Extract<CardRiskEvent, { kind: 'refunds_changed' }>['refunds'];

export const CARD_RISK_EVENT_TYPES = [
  'refund.created',
  'refund.updated',
  'refund.failed',
  'charge.refund.updated',
  'charge.refunded',
  'charge.dispute.created',
  'charge.dispute.updated',
  'charge.dispute.closed',
  'charge.dispute.funds_withdrawn',
  'charge.dispute.funds_reinstated',
  'radar.early_fraud_warning.created',
] as const;
export type CardRiskEventType = (typeof CARD_RISK_EVENT_TYPES)[number];

export function isCardRiskEventType(type: string): type is CardRiskEventType {
  return (CARD_RISK_EVENT_TYPES as readonly string[]).includes(type);
}

/** `object` is the event's `data.object`, already known to be an object. */
export async function translateCardRiskEvent(
  base: { eventId: string; type: CardRiskEventType },
  object: Record<string, unknown>,
  lookups: CardRiskLookups,
): Promise<CardRiskEvent | { eventId: string; type: string; kind: 'ignored'; reason: string }> {
  const malformed = (reason: string): CardRiskEvent => ({ ...base, kind: 'malformed', reason });
  switch (base.type) {
    case 'refund.created':
    case 'refund.updated':
    case 'refund.failed':
    case 'charge.refund.updated': {
      const refund = processorRefundOf(object as unknown as Stripe.Refund);
      if (!refund) return malformed('the refund names no PaymentIntent, or an amount, currency or status peerpay does not know');
      return { ...base, kind: 'refunds_changed', chargeRef: refund.chargeRef, refunds: [refund] };
    }
    case 'charge.refunded': {
      const chargeRef = idOf(object.payment_intent as string | null | undefined);
      if (!chargeRef) return malformed('the refunded charge names no PaymentIntent');
      return { ...base, kind: 'refunds_changed', chargeRef, refunds: await lookups.listRefunds(chargeRef) };
    }
    case 'charge.dispute.created':
    case 'charge.dispute.updated':
    case 'charge.dispute.closed': {
      const dispute = processorDisputeOf(object as unknown as Stripe.Dispute);
      if (!dispute) return malformed('the dispute names no PaymentIntent, or an amount, currency or status peerpay does not know');
      return { ...base, kind: 'dispute_changed', dispute };
    }
    case 'charge.dispute.funds_withdrawn':
    case 'charge.dispute.funds_reinstated':
      // Informational: the dispute's own created/closed events carry what peerpay books.
      return { ...base, kind: 'ignored', reason: 'dispute funds movements are informational' };
    case 'radar.early_fraud_warning.created':
      return earlyFraudWarning(base, object, lookups, malformed);
  }
}

async function earlyFraudWarning(
  base: { eventId: string; type: string },
  warning: Record<string, unknown>,
  lookups: CardRiskLookups,
  malformed: (reason: string) => CardRiskEvent,
): Promise<CardRiskEvent> {
  const warningRef = typeof warning.id === 'string' ? warning.id : null;
  if (!warningRef) return malformed('the early fraud warning has no id');
  // Stripe's warning names its PaymentIntent when there is one; older ones name only the charge.
  let chargeRef = idOf(warning.payment_intent as string | null | undefined);
  if (!chargeRef) {
    const chargeId = idOf(warning.charge as string | null | undefined);
    if (!chargeId) return malformed('the early fraud warning names no charge');
    chargeRef = await lookups.paymentIntentOfCharge(chargeId);
    if (!chargeRef) return malformed(`charge ${chargeId} of the early fraud warning has no PaymentIntent`);
  }
  return { ...base, kind: 'early_fraud_warning', warningRef, chargeRef };
}
