// POST /webhooks/circle (DESIGN §19, WALLET_PROVIDER=circle): Circle's notifications. The body is
// kept raw, because X-Circle-Signature is over the exact bytes; a notification that does not verify
// (bad or missing signature, unknown key id, a body that is not a notification) answers 400 and
// changes nothing. A verified transactions.inbound notification is recorded as a deposit once per
// Circle transaction id (stablecoin/deposits/circle-deposits.ts): a repeat, or a state that arrives
// after COMPLETE, answers 200 and changes nothing. Other notification types answer 200 and are
// ignored (outbound transfers are followed by asking Circle). When Circle's key or screening cannot
// answer, 503 (and a 5xx when the database or the chain fails): Circle delivers the notification
// again later, and the reconciliation poll would credit it anyway.
import { Type } from 'typebox';
import { CircleApiError, type CircleNotificationVerifier } from '../../adapters/circle/circle-port.js';
import type { CircleDeposits } from '../../stablecoin/deposits/circle-deposits.js';
import { AppError } from '../../platform/errors.js';
import { operation } from '../schemas/operation.js';
import type { App } from '../types.js';

/** Circle's notifications are about a kilobyte; 256 KiB leaves room without inviting abuse. */
const WEBHOOK_BODY_LIMIT_BYTES = 256 * 1024;

const webhookOperation = operation({
  operationId: 'receiveCircleNotification',
  tag: 'service',
  summary: 'Circle notification endpoint (WALLET_PROVIDER=circle)',
  description:
    'Signed by Circle (`X-Circle-Signature`: base64 ECDSA-SHA256 over the raw body, with the public key named by `X-Circle-Key-Id`). `transactions.inbound` notifications credit deposits, each Circle transaction once, when COMPLETE; other types are acknowledged and ignored. 400 `invalid_signature` when the notification does not verify; nothing is applied.',
  auth: 'public',
  rateLimited: false,
  responses: { 200: Type.Object({ received: Type.Literal(true) }, { examples: [{ received: true }] }) },
  // Any content type is read as raw bytes, so only its size and signature can be refused.
  errors: ['invalid_signature', 'body_too_large', 'screening_unavailable'],
});

export interface CircleWebhookServices {
  verifier: CircleNotificationVerifier;
  circleDeposits: CircleDeposits;
}

export async function circleWebhookRoutes(app: App, { verifier, circleDeposits }: CircleWebhookServices): Promise<void> {
  // Raw bytes for every content type, in this scope only.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT_BYTES }, (_request, body, done) => done(null, body));

  app.post(
    '/webhooks/circle',
    {
      ...webhookOperation,
      // Authenticated by its signature, not by an API key; Circle's bursts are not rate limited.
      config: { ...webhookOperation.config, rateLimit: false },
      bodyLimit: WEBHOOK_BODY_LIMIT_BYTES,
    },
    async (request) => {
      const body = request.body;
      if (!Buffer.isBuffer(body)) throw new AppError('invalid_signature', 'A signed Circle notification body is required.');
      const keyId = request.headers['x-circle-key-id'];
      const signature = request.headers['x-circle-signature'];
      let notification;
      try {
        notification = await verifier.verify({
          rawBody: body,
          keyId: typeof keyId === 'string' ? keyId : undefined,
          signature: typeof signature === 'string' ? signature : undefined,
        });
      } catch (error) {
        // Circle's public key could not be fetched: not the sender's fault, and Circle will retry.
        if (error instanceof CircleApiError)
          throw new AppError('service_unavailable', 'Circle could not be asked for its signing key; try again later.');
        throw error;
      }
      if (notification === null) throw new AppError('invalid_signature', 'The Circle notification does not verify; nothing was applied.');
      const { notificationId, notificationType, transaction } = notification;
      if (notificationType !== 'transactions.inbound' || transaction === null) {
        request.log.info({ circleNotification: notificationId, type: notificationType }, 'circle webhook: ignored');
        return { received: true as const };
      }
      const outcome = await circleDeposits.record(transaction);
      request.log.info(
        { circleNotification: notificationId, circleTransaction: transaction.id, state: transaction.state, outcome },
        'circle webhook',
      );
      return { received: true as const };
    },
  );
}
