// Standard Webhooks signing (https://www.standardwebhooks.com): the signed content is
// `${webhook-id}.${webhook-timestamp}.${body}`, signed with HMAC-SHA256 under the base64 key that
// follows `whsec_`, and sent as `v1,<base64 signature>`. Tested against the standardwebhooks package.
import { createHmac } from 'node:crypto';

export function signWebhook(input: { secret: string; id: string; timestampSeconds: number; body: string }): string {
  const key = Buffer.from(input.secret.replace(/^whsec_/, ''), 'base64');
  const signature = createHmac('sha256', key).update(`${input.id}.${input.timestampSeconds}.${input.body}`).digest('base64');
  return `v1,${signature}`;
}
