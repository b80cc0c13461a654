// @peerpay/client: a typed client for the peerpay API. One method per operation of the OpenAPI
// document, named after its operationId (`createTransfer`, `getStablecoinBalance`, ...), typed from
// the generated openapi.ts. Refusals are thrown as PeerpayError with the problem document. Every
// call that moves money carries an Idempotency-Key (generated unless given), and the same key is
// sent again on its automatic retries. Uses only fetch: Node 20+, browsers, workers.
import type { components, operations } from './openapi.js';
import { OPERATIONS, PROBLEM_MEMBERS, type OperationId } from './operations.js';

export type { components, operations, paths } from './openapi.js';
export { OPERATIONS, PROBLEM_MEMBERS, type OperationId } from './operations.js';
export { verifyWebhook, WebhookVerificationError, WEBHOOK_TOLERANCE_SECONDS, type WebhookPayload } from './webhooks.js';

/** The service's error body: RFC 9457 with a stable `code`, every extension member optional. */
export type Problem = components['schemas']['Problem'];
/** Codes the client itself adds: no answer at all, or an answer that is not a problem document. */
export type ClientErrorCode = 'network_error' | 'unexpected_response';
export type ErrorCode = Problem['code'];

/** T without its index signature: only the members it names. */
type Declared<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };
/** Every extension member the document declares, by name: the Problem schema's and the x402 members of a 402. */
type MemberTypes = Required<Declared<operations['lookupNanoAccount']['responses'][402]['content']['application/problem+json']>>;
type MembersOf<C> = C extends keyof typeof PROBLEM_MEMBERS ? (typeof PROBLEM_MEMBERS)[C] : Record<never, never>;
type MemberType<K> = K extends keyof MemberTypes ? MemberTypes[K] : unknown;

/**
 * The problem document of one code: the members every problem has, and exactly the extension
 * members that code carries (PROBLEM_MEMBERS, from the document's x-members-by-code), required when
 * it always carries them. Inside `if (problem.code === 'amount_too_small')`, `problem.minimum` is
 * a string; outside, reading it does not compile.
 */
export type ProblemOf<C extends ErrorCode> = {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: C;
  requestId?: string;
} & { -readonly [K in keyof MembersOf<C> as MembersOf<C>[K] extends 'always' ? K : never]-?: MemberType<K> } & {
  -readonly [K in keyof MembersOf<C> as MembersOf<C>[K] extends 'sometimes' ? K : never]?: MemberType<K>;
};
/** A problem the client made up: no answer at all, or an answer that was not a problem document. */
export type ClientProblem<C extends ClientErrorCode = ClientErrorCode> = {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: C;
};
/** Any problem document, discriminated by `code`. */
export type TypedProblem = { [C in ErrorCode]: ProblemOf<C> }[ErrorCode] | ClientProblem;

class PeerpayErrorClass extends Error {
  override readonly name = 'PeerpayError';
  readonly status: number;
  readonly code: ErrorCode | ClientErrorCode;
  /** The problem document as the service sent it (or as the client made it up for network_error / unexpected_response). */
  readonly problem: TypedProblem;
  /** Seconds from Retry-After, when the answer had one. */
  readonly retryAfterSeconds: number | undefined;
  readonly operationId: OperationId;

  constructor(operationId: OperationId, problem: TypedProblem, retryAfterSeconds?: number, options?: { cause?: unknown }) {
    super(`${problem.detail} (${problem.code})`, options);
    this.operationId = operationId;
    this.status = problem.status;
    this.code = problem.code;
    this.problem = problem;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** A refusal of one code: `code` and `problem.code` are the same, so checking `error.code` types `error.problem`. */
export type PeerpayErrorOf<C extends ErrorCode | ClientErrorCode> = PeerpayErrorClass & {
  readonly code: C;
  readonly problem: C extends ErrorCode ? ProblemOf<C> : C extends ClientErrorCode ? ClientProblem<C> : never;
};
/** A refusal: a union over the codes, discriminated by `code`. */
export type PeerpayError = { [C in ErrorCode | ClientErrorCode]: PeerpayErrorOf<C> }[ErrorCode | ClientErrorCode];
/** The class of refusals; `error instanceof PeerpayError` narrows to the union above. */
export const PeerpayError = PeerpayErrorClass as unknown as {
  new (operationId: OperationId, problem: TypedProblem, retryAfterSeconds?: number, options?: { cause?: unknown }): PeerpayError;
  readonly prototype: PeerpayError;
};

/** Whether `error` is a refusal with this code; its problem is then typed for the code. */
export function isPeerpayError<C extends ErrorCode | ClientErrorCode>(error: unknown, code: C): error is PeerpayErrorOf<C> {
  return error instanceof PeerpayErrorClass && error.code === code;
}

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type Success<R> = { [S in keyof R & (200 | 201)]: Json<R[S]> }[keyof R & (200 | 201)];
/** Amounts may be given as decimal strings ("10.25"): they are sent as the exact JSON number. */
type WithDecimalAmounts<B> = B extends object ? { [P in keyof B]: P extends 'amount' ? number | string : B[P] } : B;
type BodyOf<O> = O extends { requestBody: infer R }
  ? WithDecimalAmounts<Json<R>>
  : O extends { requestBody?: infer R }
    ? WithDecimalAmounts<Json<NonNullable<R>>>
    : never;
type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? Q : never;
type Defined<T> = [T] extends [never] ? false : [T] extends [undefined] ? false : true;

/** What an operation takes: its JSON body, its query, and for calls that move money the Idempotency-Key to use. */
export type Input<K extends OperationId> = (Defined<BodyOf<operations[K]>> extends true
  ? { body: BodyOf<operations[K]> }
  : { body?: never }) &
  (Defined<QueryOf<operations[K]>> extends true ? { query?: QueryOf<operations[K]> } : { query?: never }) & {
    /** Calls that move money: the key to send (one is generated otherwise). Ignored by other calls. */
    idempotencyKey?: string;
    /** Extra headers, e.g. X-Payment-Source for the x402 endpoints. */
    headers?: Record<string, string>;
    signal?: AbortSignal;
  };
/** What an operation answers on success. */
export type Output<K extends OperationId> = Success<operations[K]['responses']>;

type HasRequired<K extends OperationId> = Defined<BodyOf<operations[K]>>;
/** One method per operation; the argument is optional when the operation has no body. */
export type PeerpayMethods = {
  [K in OperationId]: HasRequired<K> extends true ? (input: Input<K>) => Promise<Output<K>> : (input?: Input<K>) => Promise<Output<K>>;
};

export interface PeerpayClientOptions {
  /** The service, e.g. http://127.0.0.1:3000. */
  baseUrl: string;
  /** `pa_live_…`; public operations work without one. */
  apiKey?: string | undefined;
  /** Another fetch (tests, an in-process transport); the global one by default. */
  fetch?: typeof fetch;
  /** Retries after a network error, 429 or 5xx, for the calls where a retry is safe (default 2). */
  maxRetries?: number;
  /** A Retry-After longer than this is not waited for: the error is thrown (default 10 s). */
  maxRetryDelayMs?: number;
  /** First back-off when no Retry-After is given, doubled each time (default 250 ms). */
  baseRetryDelayMs?: number;
  /** Makes Idempotency-Keys (default: a random UUID). */
  newIdempotencyKey?: () => string;
}

export type PeerpayClient = PeerpayMethods & {
  /** Calls an operation by its operationId. */
  call<K extends OperationId>(operationId: K, input?: Input<K>): Promise<Output<K>>;
  readonly baseUrl: string;
};

const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);
const DECIMAL = /^[0-9]+(\.[0-9]+)?$/;

export function createPeerpayClient(options: PeerpayClientOptions): PeerpayClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const maxRetries = Math.max(0, Math.min(options.maxRetries ?? 2, 10));
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 10_000;
  const baseRetryDelayMs = options.baseRetryDelayMs ?? 250;
  const newKey = options.newIdempotencyKey ?? (() => globalThis.crypto.randomUUID());

  async function call<K extends OperationId>(operationId: K, input: Input<K> = {}): Promise<Output<K>> {
    const op = OPERATIONS[operationId];
    if (!op) throw new TypeError(`unknown operation ${String(operationId)}`);
    const url = baseUrl + op.path + queryString(input.query);
    const headers: Record<string, string> = { accept: 'application/json, application/problem+json', ...input.headers };
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    let body: string | undefined;
    if (input.body !== undefined) {
      body = serializeBody(input.body);
      headers['content-type'] = 'application/json';
    }
    // One key for the call and all its retries: the service answers a retry with the first result.
    if (op.idempotent) headers['idempotency-key'] = input.idempotencyKey ?? newKey();
    const safeToRetry = op.method === 'GET' || op.idempotent;

    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await doFetch(url, { method: op.method, headers, body, signal: input.signal });
      } catch (cause) {
        if (input.signal?.aborted || !safeToRetry || attempt >= maxRetries) {
          throw new PeerpayError(
            operationId,
            {
              type: 'about:blank',
              title: 'Network error',
              status: 0,
              detail: `No answer from ${baseUrl}: ${cause instanceof Error ? cause.message : String(cause)}`,
              code: 'network_error',
            },
            undefined,
            { cause },
          );
        }
        await sleep(backoff(attempt), input.signal);
        continue;
      }
      if (response.ok) return (await readJson(response)) as Output<K>;
      const retryAfter = retryAfterSeconds(response.headers.get('retry-after'));
      // A 429 was refused before any work; a 5xx may have done some, so only safe calls repeat it.
      const retryable = RETRYABLE_STATUS.has(response.status) && (response.status === 429 || safeToRetry);
      const delayMs = retryAfter !== undefined ? retryAfter * 1000 : backoff(attempt);
      if (!retryable || attempt >= maxRetries || delayMs > maxRetryDelayMs) throw await errorOf(operationId, response, retryAfter);
      if (response.status === 429) {
        const refusal = await errorOf(operationId, response, retryAfter);
        // A limit is not a rate: it lifts when enough volume ages out, which the caller is told
        // (retryAfterSeconds) instead of being kept waiting for it, however short it is.
        if (refusal.code === 'limit_exceeded') throw refusal;
      } else await response.body?.cancel().catch(() => undefined);
      await sleep(delayMs, input.signal);
    }
  }

  function backoff(attempt: number): number {
    const delay = baseRetryDelayMs * 2 ** attempt;
    return Math.round(delay / 2 + Math.random() * (delay / 2));
  }

  const methods = Object.fromEntries(
    (Object.keys(OPERATIONS) as OperationId[]).map((id) => [id, (input?: Input<typeof id>) => call(id, input)]),
  ) as unknown as PeerpayMethods;
  return Object.assign(methods, { call, baseUrl });
}

/** JSON, with decimal-string amounts written as the exact JSON number they spell ("10.10" → 10.10). */
export function serializeBody(body: unknown): string {
  const marks: string[] = [];
  // A mark no string of the caller's can spell: a random nonce per call.
  const nonce = globalThis.crypto.randomUUID();
  const text = JSON.stringify(body, (key, value: unknown) => {
    if (key === 'amount' && typeof value === 'string' && DECIMAL.test(value.trim())) {
      marks.push(value.trim());
      return `amount:${nonce}:${marks.length - 1}`;
    }
    return value;
  });
  return text.replace(new RegExp(`"amount:${nonce}:(\\d+)"`, 'g'), (_, i: string) => marks[Number(i)]!);
}

function queryValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== null) params.set(name, queryValue(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
}

async function errorOf(operationId: OperationId, response: Response, retryAfter: number | undefined): Promise<PeerpayError> {
  const text = await response.text().catch(() => '');
  try {
    const problem = JSON.parse(text) as TypedProblem;
    if (problem && typeof problem.code === 'string' && typeof problem.detail === 'string')
      return new PeerpayError(operationId, { ...problem, status: response.status }, retryAfter);
  } catch {
    // not JSON: described below
  }
  return new PeerpayError(
    operationId,
    {
      type: 'about:blank',
      title: response.statusText || 'Unexpected response',
      status: response.status,
      detail: `HTTP ${response.status} without a problem document`,
      code: 'unexpected_response',
    },
    retryAfter,
  );
}

/** Retry-After as seconds (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterSeconds(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** Why the caller aborted: its own reason when that is an error, else the standard AbortError. */
function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException('This operation was aborted', 'AbortError');
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(abortReason(signal));
      },
      { once: true },
    );
  });
}
