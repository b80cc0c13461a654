// Sends due webhooks, signed, from the durable queue; see events/webhook-delivery.ts. In a queue of
// its own (job-runner.ts): a slow endpoint's 10 s never holds back settlement or payouts.
import type { WebhookDelivery } from '../events/webhook-delivery.js';
import type { Job } from './job.js';

export function createWebhookDeliveryJob({ webhookDelivery }: { webhookDelivery: WebhookDelivery }): Job {
  return {
    name: 'webhook-delivery',
    queue: 'webhooks',
    run: () => webhookDelivery.deliverDue(),
  };
}
