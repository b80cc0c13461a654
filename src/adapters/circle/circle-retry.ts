// Every Circle call goes through here: a 429, a 5xx, a network failure or no answer within the
// timeout is retried (bounded, with backoff); anything else Circle refuses becomes a CircleApiError
// at once. A retried POST carries the same idempotency key (the caller's closure rebuilds the same
// request; the SDK encrypts the entity secret afresh, as Circle requires), so a transfer whose
// answer was lost is found again by its key instead of being sent twice.
//
// The SDK's errors hold the axios request, whose headers carry the API key: they are read for their
// status, code and message and never attached as a cause or logged.
import { HttpRequestError, HttpResponseError } from '@circle-fin/developer-controlled-wallets';
import { CircleApiError } from './circle-port.js';

export interface RetryPolicy {
  /** Attempts after the first; 0 means one attempt. */
  maxRetries: number;
  /** How long one attempt may wait for its answer. */
  timeoutMs: number;
  /** Backoff before retry n (1-based), in ms. */
  backoffMs(retry: number): number;
  sleep(ms: number): Promise<void>;
}

export function defaultBackoff(retry: number): number {
  // 200 ms, 400 ms, 800 ms … capped at 5 s, with jitter so that many callers do not retry in step.
  const base = Math.min(5000, 200 * 2 ** (retry - 1));
  return base / 2 + Math.random() * (base / 2);
}

class AttemptTimeout extends Error {}

function withTimeout<T>(call: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AttemptTimeout()), ms);
  });
  // The abandoned attempt may still fail later; its rejection is expected and must not go unhandled.
  call.catch(() => undefined);
  return Promise.race([call, timeout]).finally(() => clearTimeout(timer));
}

/** The CircleApiError for what an attempt threw, or the original error when it is not Circle's. */
export function toCircleApiError(what: string, error: unknown): CircleApiError | null {
  if (error instanceof AttemptTimeout) return new CircleApiError(`${what}: no answer in time`, null, null, true);
  if (error instanceof HttpResponseError) {
    const status = error.status ?? null;
    const code = typeof error.code === 'number' && error.code !== status ? error.code : null;
    const retryable = status === 429 || (status !== null && status >= 500);
    const detail = code === null ? `${status}` : `${status} (code ${code})`;
    return new CircleApiError(`${what}: Circle answered ${detail}: ${error.message}`, status, code, retryable);
  }
  if (error instanceof HttpRequestError) {
    return new CircleApiError(`${what}: network failure (${String(error.code)})`, null, null, true);
  }
  return null;
}

export async function withRetries<T>(what: string, policy: RetryPolicy, attempt: () => Promise<T>): Promise<T> {
  for (let retry = 0; ; retry += 1) {
    try {
      return await withTimeout(attempt(), policy.timeoutMs);
    } catch (error) {
      const circleError = toCircleApiError(what, error);
      if (circleError === null) throw error;
      if (!circleError.retryable || retry >= policy.maxRetries) {
        if (circleError.retryable) {
          throw new CircleApiError(`${circleError.message} (after ${retry + 1} attempts)`, circleError.status, circleError.code, true);
        }
        throw circleError;
      }
      await policy.sleep(policy.backoffMs(retry + 1));
    }
  }
}
