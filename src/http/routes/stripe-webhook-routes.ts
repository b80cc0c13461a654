// POST /webhooks/stripe (DESIGN §11): Stripe tells peerpay what happened to setups, charges, bank
// debits and connected accounts. The body is kept raw, because the signature is over the exact
// bytes; an event that does not verify answers 400 and changes nothing. A verified event is applied
// once per event id, in one transaction, and answered 200 (also an event peerpay ignores). A
// well-signed event whose object is missing or unknown answers 200 with an error log: no retry can
// make it whole (DESIGN §16). Anything else (the database down) answers 5xx, and Stripe delivers it
// again later.
import { Type } from 'typebox';
import type { StripeWebhookReader } from '../../adapters/processor/stripe/stripe-webhooks.js';
import { WebhookSignatureError } from '../../adapters/processor/stripe/webhook-signature-error.js';
import type { ProcessorEvents } from '../../fiat/processor-events.js';
import { AppError } from '../../platform/errors.js';
import { operation } from '../schemas/operation.js';
import type { App } from '../types.js';

/** Stripe's events are a few kilobytes; a megabyte leaves room without inviting abuse. */
const WEBHOOK_BODY_LIMIT_BYTES = 1024 * 1024;

const webhookOperation = operation({
  operationId: 'receiveStripeWebhook',
  tag: 'service',
  summary: 'Stripe webhook endpoint (live mode)',
  description:
    'Signed with the endpoint secret (`Stripe-Signature`). Events: checkout.session.completed, account.updated, payment_intent.succeeded, payment_intent.payment_failed, and card risk (refund.created, refund.updated, refund.failed, charge.refunded, charge.refund.updated, charge.dispute.*, radar.early_fraud_warning.created). 400 `invalid_signature` when the signature does not verify; nothing is applied.',
  auth: 'public',
  rateLimited: false,
  responses: { 200: Type.Object({ received: Type.Literal(true) }, { examples: [{ received: true }] }) },
  // Any content type is read as raw bytes, so only its size and signature can be refused.
  errors: ['invalid_signature', 'body_too_large'],
});

export async function stripeWebhookRoutes(app: App, processorEvents: ProcessorEvents, reader: StripeWebhookReader): Promise<void> {
  // Raw bytes for every content type, in this scope only.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT_BYTES }, (_request, body, done) => done(null, body));

  app.post(
    '/webhooks/stripe',
    {
      ...webhookOperation,
      // Authenticated by its signature, not by an API key; Stripe's bursts are not rate limited.
      config: { ...webhookOperation.config, rateLimit: false },
      bodyLimit: WEBHOOK_BODY_LIMIT_BYTES,
    },
    async (request) => {
      const body = request.body;
      if (!Buffer.isBuffer(body)) throw new AppError('invalid_signature', 'A Stripe event body is required.');
      const signature = request.headers['stripe-signature'];
      let event;
      try {
        event = await reader.read(body, typeof signature === 'string' ? signature : undefined);
      } catch (error) {
        if (error instanceof WebhookSignatureError) throw new AppError('invalid_signature', `${error.message}; nothing was applied.`);
        throw error;
      }
      if (event.kind === 'malformed') {
        request.log.error(
          { stripeEvent: event.eventId, type: event.type, reason: event.reason },
          'stripe webhook: malformed event not applied',
        );
        return { received: true as const };
      }
      const outcome = await processorEvents.apply(event);
      request.log.info({ stripeEvent: event.eventId, type: event.type, outcome }, 'stripe webhook');
      return { received: true as const };
    },
  );
}
