// Webhook signing secrets are derived, not stored (decision 0017): each endpoint stores a random
// salt, and its secret is HMAC-SHA256(K, salt) where K comes from the master seed by HKDF. The
// service can sign with it at any time, yet a copy of the database alone reveals no secret, and
// no secret is ever written anywhere. The client is shown it once, as `whsec_` + base64.
import { createHmac, hkdfSync, randomBytes } from 'node:crypto';

export interface WebhookSecrets {
  /** A new random salt for an endpoint. */
  newSalt(): string;
  /** The endpoint's secret, `whsec_` + base64 of 32 bytes. */
  secretFor(salt: string): string;
}

export function createWebhookSecrets(masterSeed: Uint8Array): WebhookSecrets {
  const root = Buffer.from(hkdfSync('sha256', masterSeed, Buffer.from('peerpay'), Buffer.from('webhook signing secrets v1'), 32));
  return {
    newSalt: () => randomBytes(16).toString('base64url'),
    secretFor: (salt) => `whsec_${createHmac('sha256', root).update(salt).digest('base64')}`,
  };
}
