// A client as a careful payments integrator writes one: every money-moving request carries an
// Idempotency-Key, and a request whose answer was not seen (connection refused or cut, a 5xx, or
// 409 "still in progress") is sent again with the same key and body until an answer arrives.
export interface Answer {
  status: number;
  body: any;
  /** How many times the request was sent. */
  attempts: number;
}

export interface CallOptions {
  method: string;
  path: string;
  key?: string;
  body?: unknown;
  idempotencyKey?: string;
  /** Gives up after this long (ms); a chaos run's clients must finish. */
  deadlineMs?: number;
  /** Told of each answer that is not final (null: none seen), before the request is sent again. */
  onRetry?: (answer: { status: number; body: any } | null) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One attempt; null when no answer was seen. */
export async function callOnce(baseUrl: string, options: CallOptions): Promise<{ status: number; body: any; headers: Headers } | null> {
  const headers: Record<string, string> = {};
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  try {
    const response = await fetch(baseUrl + options.path, {
      method: options.method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: kept as text for the failure message
    }
    return { status: response.status, body, headers: response.headers };
  } catch {
    return null;
  }
}

/** Sends until an answer that is final for this key arrives. `baseUrl()` may change between tries (another process). */
export async function callUntilAnswered(baseUrl: () => string, options: CallOptions): Promise<Answer> {
  const deadline = Date.now() + (options.deadlineMs ?? 180_000);
  for (let attempts = 1; ; attempts++) {
    const answer = await callOnce(baseUrl(), options);
    const retry =
      answer === null ||
      answer.status >= 500 ||
      (answer.status === 409 && answer.body?.code === 'idempotency_key_in_use') ||
      answer.status === 429;
    if (!retry) return { status: answer.status, body: answer.body, attempts };
    options.onRetry?.(answer);
    if (Date.now() > deadline) {
      throw new Error(
        `no final answer to ${options.method} ${options.path} (key ${options.idempotencyKey}) after ${attempts} attempts; last: ${answer ? `${answer.status} ${JSON.stringify(answer.body)}` : 'no answer'}`,
      );
    }
    const retryAfter = Number(answer?.headers.get('retry-after'));
    await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter * 1000, 2000) : 100 + Math.floor(Math.random() * 150));
  }
}
