// Sends due webhooks, signed, from the durable queue; see events/webhook-delivery.ts. In a queue of
// its own (job-runner.ts): a slow endpoint's 10 s never holds back settlement or payouts.
import { deliverDueWebhooks } from '../events/webhook-delivery.js';
import type { JobOver } from './job.js';

/** What a round of this job uses. */
export type WebhookDeliveryJobDeps = Parameters<typeof deliverDueWebhooks>[0];

export const webhookDeliveryJob: JobOver<WebhookDeliveryJobDeps> = {
  name: 'webhook-delivery',
  queue: 'webhooks',
  run: (deps) => deliverDueWebhooks(deps),
};
