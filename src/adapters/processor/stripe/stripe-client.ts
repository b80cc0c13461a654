// The one place the official Stripe client is configured: the API version peerpay is written
// against, where the API is (STRIPE_API_BASE: Stripe itself, or a stand-in in tests), and how long
// and how often a call may be tried. The client retries network errors, 409s, 429s and 5xx itself
// with the same Idempotency-Key, so a retry can never charge twice.
import Stripe from 'stripe';

/** The Stripe API version peerpay's adapter and webhook handling are written against. */
export const STRIPE_API_VERSION = '2026-08-26.dahlia' as const;

const NETWORK_RETRIES = 2;

export interface StripeSettings {
  readonly secretKey: string;
  /** e.g. https://api.stripe.com, or http://127.0.0.1:12345 for a stand-in. */
  readonly apiBase: string;
  /** How long one attempt may wait for Stripe's answer before it counts as unanswered. */
  readonly requestTimeoutMs: number;
}

export function createStripeClient(settings: StripeSettings): Stripe {
  const base = new URL(settings.apiBase);
  const protocol = base.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(settings.secretKey, {
    apiVersion: STRIPE_API_VERSION,
    host: base.hostname,
    port: base.port ? Number(base.port) : protocol === 'http' ? 80 : 443,
    protocol,
    maxNetworkRetries: NETWORK_RETRIES,
    timeout: settings.requestTimeoutMs,
    telemetry: false,
    appInfo: { name: 'peerpay' },
  });
}
