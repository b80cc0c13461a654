// Circle's notifications (DESIGN §19): X-Circle-Signature is a base64 ECDSA-SHA256 signature over
// the raw body, made with the key X-Circle-Key-Id names; the key comes from
// GET /v2/notifications/publicKey/{id} and is kept per id (a bounded cache inside this verifier).
// A bad signature, an unknown key id or a body that is not a notification gives null: the route
// answers 400 and changes nothing. Circle itself being unreachable is not the sender's fault: that
// throws (CircleApiError), so the route answers 5xx and Circle delivers again later.
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { createCircleSdk, retryPolicy } from './circle-client.js';
import { CircleApiError, type CircleNotification, type CircleNotificationVerifier } from './circle-port.js';
import { withRetries } from './circle-retry.js';
import { createTokenDirectory } from './circle-token-directory.js';
import { NO_TOKEN, readTransaction, type WireTransaction } from './circle-wire.js';
import { parseNotification } from './circle-notification-body.js';

export interface CircleNotificationVerifierOptions {
  apiBase: string;
  apiKey: string;
  /** Key ids remembered (found or not); 64 when absent. */
  maxCachedKeys?: number;
  timeoutMs?: number;
  maxRetries?: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createCircleNotificationVerifier(options: CircleNotificationVerifierOptions): CircleNotificationVerifier {
  // Reading a public key and a token carries no entity secret ciphertext: the SDK is given none.
  const sdk = createCircleSdk({ apiKey: options.apiKey, entitySecret: '', apiBase: options.apiBase });
  const policy = retryPolicy(options);
  const keys = createKeyCache(options.maxCachedKeys ?? 64, async (keyId) => {
    try {
      const answer = await withRetries(`GET notification key ${keyId}`, policy, () => sdk.getNotificationSignature(keyId));
      const data = answer.data;
      if (data?.algorithm !== 'ECDSA_SHA_256') return null;
      return createPublicKey({ key: Buffer.from(data.publicKey, 'base64'), format: 'der', type: 'spki' });
    } catch (error) {
      // Circle does not know the key id: no notification signed with it is Circle's.
      if (error instanceof CircleApiError && (error.status === 404 || error.status === 400)) return null;
      throw error;
    }
  });
  const tokens = createTokenDirectory(async (id) => {
    const answer = await withRetries(`GET token ${id}`, policy, () => sdk.getToken({ id }));
    const token = answer.data?.token;
    if (token === undefined) throw new CircleApiError(`GET token ${id}: Circle's answer had no data`, null, null, false);
    return token;
  });

  return {
    async verify({ rawBody, keyId, signature }): Promise<CircleNotification | null> {
      if (keyId === undefined || signature === undefined || !UUID.test(keyId)) return null;
      const key = await keys.get(keyId.toLowerCase());
      if (key === null || !signatureHolds(rawBody, key, signature)) return null;
      const body = parseNotification(rawBody);
      if (body === null) return null;
      const wire = body.transaction as WireTransaction | null;
      let transaction = null;
      if (wire !== null) {
        try {
          transaction = readTransaction(wire, wire.tokenId ? await tokens.info(wire.tokenId) : NO_TOKEN);
        } catch (error) {
          if (error instanceof CircleApiError) throw error;
          return null;
        }
      }
      return { notificationId: body.notificationId, notificationType: body.notificationType, transaction };
    },
  };
}

function signatureHolds(rawBody: Buffer, key: KeyObject, signature: string): boolean {
  const bytes = Buffer.from(signature, 'base64');
  if (bytes.length === 0) return false;
  try {
    return verify('sha256', rawBody, key, bytes);
  } catch {
    return false;
  }
}

interface KeyCache {
  get(keyId: string): Promise<KeyObject | null>;
}

function createKeyCache(limit: number, fetch: (keyId: string) => Promise<KeyObject | null>): KeyCache {
  const cache = new Map<string, Promise<KeyObject | null>>();
  return {
    get(keyId) {
      const cached = cache.get(keyId);
      if (cached !== undefined) {
        // Most recently used last, so the oldest is the one that goes when the cache is full.
        cache.delete(keyId);
        cache.set(keyId, cached);
        return cached;
      }
      const pending = fetch(keyId);
      // A failure to reach Circle is not remembered; the next delivery asks again.
      pending.catch(() => cache.delete(keyId));
      if (cache.size >= limit) cache.delete(cache.keys().next().value as string);
      cache.set(keyId, pending);
      return pending;
    },
  };
}
