// verifyWebhook: checks a peerpay webhook as the Standard Webhooks specification says (the same
// check as the standardwebhooks package): HMAC-SHA256, under the key after `whsec_`, of
// `${webhook-id}.${webhook-timestamp}.${body}`, compared with each `v1,` signature of the
// webhook-signature header in constant time, and a timestamp within 5 minutes of now. WebCrypto
// only: Node 20+, browsers, workers. Pass the body exactly as received (before any JSON parsing).

/** What a peerpay webhook carries: `data` is the event as GET /events shows it. */
export interface WebhookPayload {
  type: string;
  timestamp: string;
  data: { id: string; type: string; createdAt: string; data: Record<string, unknown> };
}

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

/** Seconds a webhook-timestamp may be from now (either way), as the standardwebhooks package allows. */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

function base64ToBytes(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function equalInConstantTime(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/**
 * Verifies a webhook and returns its payload; throws WebhookVerificationError when a header is
 * missing, the timestamp is too old or too new, or no signature matches.
 */
export async function verifyWebhook(
  payload: string | Uint8Array,
  headers: HeaderSource,
  secret: string,
  options: { now?: Date; toleranceSeconds?: number } = {},
): Promise<WebhookPayload> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature');
  if (!/^\d{1,15}$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not a number of seconds');
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > (options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS)) {
    throw new WebhookVerificationError('webhook-timestamp is too far from now');
  }
  const body = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
  let keyBytes: Uint8Array;
  try {
    keyBytes = base64ToBytes(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret);
  } catch {
    throw new WebhookVerificationError('the secret is not whsec_ and base64');
  }
  const key = await crypto.subtle.importKey('raw', keyBytes as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const signed = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${id}.${timestamp}.${body}`)));
  const expected = bytesToBase64(signed);
  const matches = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    return version === 'v1' && signature !== undefined && equalInConstantTime(signature, expected);
  });
  if (!matches) throw new WebhookVerificationError('no signature matches');
  return JSON.parse(body) as WebhookPayload;
}
