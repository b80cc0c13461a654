// A Stripe delivery that does not verify. Its own module, free of Stripe's SDK: the webhook route
// is part of every installation's HTTP layer, while the SDK is loaded only in live mode (deps.ts).
export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError';
}
