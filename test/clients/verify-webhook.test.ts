// Webhook signatures, against the reference implementation (the standardwebhooks package): the
// SDK's verifyWebhook accepts what the package signs and refuses what it refuses, and the service's
// signer (src/events/webhook-signature.ts) signs exactly as the package does.
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook, WebhookVerificationError } from '@peerpay/client';
import { signWebhook } from '../../src/events/webhook-signature.js';
import { createWebhookSecrets } from '../../src/events/webhook-secrets.js';

const secrets = createWebhookSecrets(new Uint8Array(32).fill(7));
const secret = secrets.secretFor(secrets.newSalt());
const body = JSON.stringify({
  type: 'transfer.received',
  timestamp: '2026-01-05T10:00:00.000Z',
  data: { id: 'evt_1', type: 'transfer.received', createdAt: '2026-01-05T10:00:00.000Z', data: { amount: '10.00' } },
});

function signedByPackage(at: Date, payload = body, id = 'evt_1') {
  const signature = new Webhook(secret).sign(id, at, payload);
  return { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature };
}

describe('verifyWebhook (SDK)', () => {
  it('accepts a webhook the standardwebhooks package signed, from a Headers object or a plain record', async () => {
    const headers = signedByPackage(new Date());
    expect((await verifyWebhook(body, headers, secret)).data.id).toBe('evt_1');
    expect((await verifyWebhook(new TextEncoder().encode(body), new Headers(headers), secret)).type).toBe('transfer.received');
    // Several signatures (a secret being rotated): one matching is enough.
    const rotated = { ...headers, 'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')} ${headers['webhook-signature']}` };
    expect((await verifyWebhook(body, rotated, secret)).data.id).toBe('evt_1');
  });

  it('refuses a changed body, another id, another secret, a stale or future timestamp and missing headers', async () => {
    const now = new Date();
    const headers = signedByPackage(now);
    const other = secrets.secretFor(secrets.newSalt());
    const refusals: Array<[string, () => Promise<unknown>]> = [
      ['changed body', () => verifyWebhook(body.replace('10.00', '99.00'), headers, secret)],
      ['other id', () => verifyWebhook(body, { ...headers, 'webhook-id': 'evt_2' }, secret)],
      ['other secret', () => verifyWebhook(body, headers, other)],
      ['stale', () => verifyWebhook(body, signedByPackage(new Date(now.getTime() - 6 * 60_000)), secret)],
      ['future', () => verifyWebhook(body, signedByPackage(new Date(now.getTime() + 6 * 60_000)), secret)],
      ['no signature', () => verifyWebhook(body, { 'webhook-id': 'evt_1', 'webhook-timestamp': headers['webhook-timestamp'] }, secret)],
      [
        'v2 only',
        () => verifyWebhook(body, { ...headers, 'webhook-signature': headers['webhook-signature'].replace('v1,', 'v2,') }, secret),
      ],
    ];
    for (const [what, attempt] of refusals) await expect(attempt(), what).rejects.toBeInstanceOf(WebhookVerificationError);
  });
});

describe("the service's signer", () => {
  it('signs exactly as the standardwebhooks package, which verifies it', () => {
    const at = new Date();
    const timestampSeconds = Math.floor(at.getTime() / 1000);
    const ours = signWebhook({ secret, id: 'evt_1', timestampSeconds, body });
    expect(ours).toBe(new Webhook(secret).sign('evt_1', new Date(timestampSeconds * 1000), body));
    const headers = { 'webhook-id': 'evt_1', 'webhook-timestamp': String(timestampSeconds), 'webhook-signature': ours };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });
});
