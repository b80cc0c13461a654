// Live mode's processor: Stripe's client, the processor on it and its webhook reader, built
// together. deps.ts imports this module only in live mode, so that Stripe's SDK (about 190 modules,
// 6 MB of a process's memory) is not loaded by a sandbox installation, which never calls Stripe.
import type { Clock } from '../../../platform/clock.js';
import { createStripeClient, type StripeSettings } from './stripe-client.js';
import { StripeProcessor } from './stripe-processor.js';
import { createStripeWebhookReader, type StripeWebhookReader } from './stripe-webhooks.js';

export interface StripeLiveSettings extends StripeSettings {
  readonly webhookSecret: string;
}

export function openStripe(
  settings: StripeLiveSettings,
  clock: Clock,
): { processor: StripeProcessor; stripeWebhooks: StripeWebhookReader } {
  const stripe = createStripeClient(settings);
  const processor = new StripeProcessor({ stripe, clock });
  return { processor, stripeWebhooks: createStripeWebhookReader({ stripe, processor, webhookSecret: settings.webhookSecret, clock }) };
}
