// Stripe's webhooks, read into peerpay's terms (ProcessorEvent). The signature is checked on the raw
// body with the endpoint's secret and Stripe's own verifier (300 s tolerance); an event that does not
// verify is refused before anything is read from it. Only the events of DESIGN §11 mean anything;
// every other type is acknowledged and ignored.
import Stripe from 'stripe';
import type { ChargeFailureCode, ProcessorEvent } from '../payment-processor.js';
import type { StripeProcessor } from './stripe-processor.js';

/** How old a signed event may be, in seconds (Stripe's default). */
const SIGNATURE_TOLERANCE_SECONDS = 300;

export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError';
}

export interface StripeWebhookReader {
  /** Verifies and reads one delivery; throws WebhookSignatureError when it does not verify. */
  read(rawBody: Buffer, signatureHeader: string | undefined): Promise<ProcessorEvent>;
}

export function createStripeWebhookReader(deps: {
  stripe: Stripe;
  processor: StripeProcessor;
  webhookSecret: string;
}): StripeWebhookReader {
  return {
    async read(rawBody, signatureHeader) {
      if (!signatureHeader) throw new WebhookSignatureError('the Stripe-Signature header is missing');
      let event: Stripe.Event;
      try {
        event = deps.stripe.webhooks.constructEvent(rawBody, signatureHeader, deps.webhookSecret, SIGNATURE_TOLERANCE_SECONDS);
      } catch (error) {
        if (error instanceof Stripe.errors.StripeSignatureVerificationError)
          throw new WebhookSignatureError('the Stripe-Signature does not verify');
        throw error;
      }
      return translate(event, deps.processor);
    },
  };
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
  if (intent.payment_method_types.includes('us_bank_account')) return 'bank_debit_returned';
  const error = intent.last_payment_error;
  return error?.code === 'authentication_required' || error?.decline_code === 'authentication_required'
    ? 'card_authentication_required'
    : 'card_declined';
}
