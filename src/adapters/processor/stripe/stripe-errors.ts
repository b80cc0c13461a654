// What a failed Stripe call means for peerpay. A card error is an answer (the card was declined,
// or needs its holder); everything else is either unknown in outcome (network, timeout, 429, 5xx:
// the caller keeps its record and retries with the same Idempotency-Key) or a bug in the request
// (invalid_request_error, idempotency_error), which is rethrown for the logs.
import Stripe from 'stripe';

export type CardErrorOutcome =
  { kind: 'declined'; declineCode: string; paymentIntentId: string } | { kind: 'authentication_required'; paymentIntentId: string };

/** A card error's outcome, or null when the error is not a card error. */
export function cardErrorOutcome(error: unknown): CardErrorOutcome | null {
  if (!(error instanceof Stripe.errors.StripeCardError)) return null;
  const raw = error.raw as { payment_intent?: { id?: string } } | undefined;
  const paymentIntentId = raw?.payment_intent?.id ?? '';
  if (error.code === 'authentication_required' || error.decline_code === 'authentication_required') {
    return { kind: 'authentication_required', paymentIntentId };
  }
  return { kind: 'declined', declineCode: error.decline_code ?? error.code ?? 'card_declined', paymentIntentId };
}

/** A Stripe error safe to log: its type, code, status and request id; never the request or the key. */
export class StripeCallError extends Error {
  override name = 'StripeCallError';
  constructor(
    readonly operation: string,
    readonly stripeType: string,
    readonly code: string | undefined,
    /** Not `statusCode`: that name would make the HTTP layer answer with Stripe's status. */
    readonly stripeStatus: number | undefined,
    readonly requestId: string | undefined,
  ) {
    super(`Stripe ${operation} failed: ${stripeType}${code ? ` (${code})` : ''}${stripeStatus ? `, HTTP ${stripeStatus}` : ''}`);
  }
}

export function stripeCallError(operation: string, error: unknown): Error {
  if (error instanceof Stripe.errors.StripeError) {
    return new StripeCallError(operation, error.type, error.code, error.statusCode, error.requestId);
  }
  return error instanceof Error ? error : new Error(`Stripe ${operation} failed`);
}
