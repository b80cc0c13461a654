// Stripe's webhooks, read into peerpay's terms (ProcessorEvent, CardRiskEvent). The signature is
// checked on the raw body with the endpoint's secret and Stripe's own verifier, 300 s either way
// (Stripe's verifier refuses only the stale side, so a timestamp from the future is refused here);
// an event that does not verify is refused before anything is read from it. Only the events of
// DESIGN §11 and §16 mean anything; every other type is acknowledged and ignored. A verified event
// whose object is missing or unknown to Stripe reads as `malformed` (acknowledged, logged as an
// error): Stripe would otherwise retry it for days, and no retry can make it whole.
import Stripe from 'stripe';
import type { Clock } from '../../../platform/clock.js';
import type { CardRiskEvent, ChargeFailureCode, ProcessorEvent } from '../payment-processor.js';
import { StripeCallError } from './stripe-errors.js';
import type { StripeProcessor } from './stripe-processor.js';
import { isCardRiskEventType, translateCardRiskEvent } from './stripe-risk-events.js';
import { MalformedStripeObjectError } from './stripe-risk-objects.js';
import { WebhookSignatureError } from './webhook-signature-error.js';

/** How far a signed event's timestamp may be from now, in seconds (Stripe's default). */
const SIGNATURE_TOLERANCE_SECONDS = 300;

export { WebhookSignatureError };

/** What one Stripe delivery says, in peerpay's terms. */
export type StripeWebhookEvent = ProcessorEvent | CardRiskEvent;

export interface StripeWebhookReader {
  /** Verifies and reads one delivery; throws WebhookSignatureError when it does not verify. */
  read(rawBody: Buffer, signatureHeader: string | undefined): Promise<StripeWebhookEvent>;
}

export function createStripeWebhookReader(deps: {
  stripe: Stripe;
  processor: StripeProcessor;
  webhookSecret: string;
  clock: Clock;
}): StripeWebhookReader {
  return {
    async read(rawBody, signatureHeader) {
      if (!signatureHeader) throw new WebhookSignatureError('the Stripe-Signature header is missing');
      const nowMs = deps.clock.now().getTime();
      let event: Stripe.Event;
      try {
        event = deps.stripe.webhooks.constructEvent(
          rawBody,
          signatureHeader,
          deps.webhookSecret,
          SIGNATURE_TOLERANCE_SECONDS,
          undefined,
          nowMs,
        );
      } catch (error) {
        if (error instanceof Stripe.errors.StripeSignatureVerificationError)
          throw new WebhookSignatureError('the Stripe-Signature does not verify');
        throw error;
      }
      if (signedInTheFuture(signatureHeader, nowMs)) throw new WebhookSignatureError('the Stripe-Signature is dated in the future');
      return readVerified(event, deps.processor);
    },
  };
}

/** Whether the header's timestamp is more than the tolerance ahead of now. */
function signedInTheFuture(header: string, nowMs: number): boolean {
  const stamps = header
    .split(',')
    .map((part) => part.trim().split('='))
    .filter(([key]) => key === 't')
    .map(([, value]) => Number(value));
  const nowSeconds = Math.floor(nowMs / 1000);
  return stamps.some((t) => !Number.isFinite(t) || t - nowSeconds > SIGNATURE_TOLERANCE_SECONDS);
}

async function readVerified(event: Stripe.Event, processor: StripeProcessor): Promise<StripeWebhookEvent> {
  const base = { eventId: String(event.id), type: String(event.type) };
  const object: unknown = (event as { data?: { object?: unknown } }).data?.object;
  if (!isKnownType(base.type)) return { ...base, kind: 'ignored', reason: 'not an event peerpay acts on' };
  if (object === null || typeof object !== 'object' || Array.isArray(object))
    return { ...base, kind: 'malformed', reason: 'the event has no data.object' };
  if (typeof (object as { id?: unknown }).id !== 'string') return { ...base, kind: 'malformed', reason: "the event's object has no id" };
  try {
    if (isCardRiskEventType(base.type))
      return await translateCardRiskEvent({ ...base, type: base.type }, object as Record<string, unknown>, processor);
    return await translate(event, processor);
  } catch (error) {
    // What Stripe says it does not have (or has in a state no retry will change) cannot be applied;
    // anything else (Stripe unreachable) fails the delivery, so that Stripe sends it again.
    if (error instanceof MalformedStripeObjectError) return { ...base, kind: 'malformed', reason: error.message };
    if (error instanceof StripeCallError && error.stripeStatus === 404)
      return { ...base, kind: 'malformed', reason: `${error.operation}: Stripe has no such object (${error.code ?? 'resource_missing'})` };
    throw error;
  }
}

const ACCOUNT_EVENT_TYPES = ['checkout.session.completed', 'account.updated', 'payment_intent.succeeded', 'payment_intent.payment_failed'];

function isKnownType(type: string): boolean {
  return ACCOUNT_EVENT_TYPES.includes(type) || isCardRiskEventType(type);
}

async function translate(event: Stripe.Event, processor: StripeProcessor): Promise<ProcessorEvent> {
  const base = { eventId: event.id, type: event.type };
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      const setupIntent = typeof session.setup_intent === 'string' ? session.setup_intent : session.setup_intent?.id;
      if (session.mode !== 'setup' || session.status !== 'complete' || !setupIntent)
        return { ...base, kind: 'ignored', reason: 'not a completed setup session' };
      // The event names the SetupIntent; what it saved is read from Stripe, not trusted from the payload.
      return {
        ...base,
        kind: 'setup_completed',
        sessionRef: session.id,
        instrumentRef: await processor.instrumentOfSetupIntent(setupIntent),
      };
    }
    case 'account.updated': {
      const account = event.data.object;
      if (!account.payouts_enabled) return { ...base, kind: 'ignored', reason: 'payouts not enabled yet' };
      return { ...base, kind: 'payout_account_ready', payoutAccountRef: account.id };
    }
    case 'payment_intent.succeeded': {
      const intent = event.data.object;
      const transferId = intent.metadata?.peerpay_transfer_id;
      if (!transferId) return { ...base, kind: 'ignored', reason: 'not a peerpay transfer' };
      return { ...base, kind: 'charge_succeeded', chargeRef: intent.id, transferId };
    }
    case 'payment_intent.payment_failed': {
      const intent = event.data.object;
      const transferId = intent.metadata?.peerpay_transfer_id;
      if (!transferId) return { ...base, kind: 'ignored', reason: 'not a peerpay transfer' };
      return { ...base, kind: 'charge_failed', chargeRef: intent.id, transferId, failureCode: failureCodeOf(intent) };
    }
    default:
      return { ...base, kind: 'ignored', reason: 'not an event peerpay acts on' };
  }
}

function failureCodeOf(intent: Stripe.PaymentIntent): ChargeFailureCode {
  if (intent.payment_method_types?.includes('us_bank_account')) return 'bank_debit_returned';
  const error = intent.last_payment_error;
  return error?.code === 'authentication_required' || error?.decline_code === 'authentication_required'
    ? 'card_authentication_required'
    : 'card_declined';
}
