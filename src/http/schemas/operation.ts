// One declaration per operation: its OpenAPI identity (operationId, tag, summary), who may call it,
// its success responses, and the error codes it can answer. From the codes this builds the error
// responses: for each status (taken from the code→status map, so the document cannot disagree with
// what the service sends) one `application/problem+json` response over the shared Problem schema,
// its `code` narrowed to that operation's codes, with an example per code. The codes every route
// shares (a lost database, rate limits, a refused key or body) are added from the route's traits.
import type { TSchema } from '@fastify/type-provider-typebox';
import { ERROR_CODES, type ErrorCode } from '../../platform/errors.js';
import { statusOf, titleOf } from '../plugins/problem-details.js';
import type { FastifyRequest } from 'fastify';
import type { AccountKey } from '../../accounts/account-lookups.js';
import type { AuthMode } from '../types.js';
import { exampleProblem } from './problem-examples.js';
import { invalidRequestExample } from './invalid-request-example.js';

export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

export const TAGS = {
  account: 'Registration, API keys, password, profile and account lookups',
  fiat: 'The fiat rail: card and bank debit setup links, transfers paid by card (instant) or bank debit (ach), balances and history',
  stablecoin: 'The stablecoin rail: USDC and EURC on Polygon; balances, transfers, quotes, funding links, deposits and withdrawals',
  x402: 'Pay-per-call micro-endpoints under the x402 protocol, priced in USDC',
  sandbox: 'Sandbox mode only: move the clock, mint test tokens',
  service: 'Health, readiness and the processor webhook',
  events: 'Events (what happened, oldest first) and the webhook endpoints that receive them signed',
} as const;

export type Tag = keyof typeof TAGS;

export interface OperationSpec {
  /** camelCase, stable: client SDKs name their methods after it. */
  operationId: string;
  tag: Tag;
  summary: string;
  description?: string;
  /** required: a key must be sent; optional: a key is used when sent (a bad one is refused); public: keys are not looked at. */
  auth: AuthMode;
  /** The method takes a body (POST, PUT, PATCH): a malformed, oversized or non-JSON one is refused. */
  readsBody?: boolean;
  /** The route honours Idempotency-Key. */
  idempotent?: boolean;
  /** Its service claims and answers the key in the transaction that does the work (decision 0050). */
  idempotencyInTransaction?: boolean;
  /** The caller's balances are read with the key, in one round trip (request.caller.balances). */
  authReadsBalances?: boolean;
  /**
   * The account this request names (from its query: a body is not read yet), read in the same
   * statement as the key (request.accountLookup); undefined when the request names none well-formed.
   */
  accountAlongsideKey?: (request: FastifyRequest) => AccountKey | undefined;
  /** Counted by a rate limiter (every route but Stripe's webhook). */
  rateLimited?: boolean;
  body?: TSchema;
  querystring?: TSchema;
  /** Path parameters, each with an example. */
  params?: TSchema;
  headers?: TSchema;
  /** The success responses, each schema with an example. */
  responses: Readonly<Record<number, TSchema>>;
  /** The codes this operation's own logic can answer; the shared ones are added. */
  errors: readonly ErrorCode[];
  /** Members the problem documents of a status carry besides the Problem schema's (x402's 402). */
  problemMembers?: Readonly<Record<number, TSchema>>;
  /** false: left out of the OpenAPI document (operator routes, not part of the contract; decision 0019). */
  published?: boolean;
  /** Example problem members an operation adds to the generic example of a code. */
  problemExamples?: Readonly<Partial<Record<ErrorCode, Record<string, unknown>>>>;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Missing or invalid request fields',
  401: 'Missing or invalid API key, or incorrect password',
  402: 'Payment required',
  404: 'Not found',
  409: 'Conflict with the current state',
  410: 'Link used or expired',
  413: 'Request body too large',
  415: 'Unsupported content type',
  422: 'Idempotency key reused with a different request',
  429: 'Too many requests; retry after Retry-After',
  500: 'Server error; retry after a brief wait',
  503: 'Temporarily unavailable; retry after Retry-After',
};

/** The codes an operation answers because of its traits, whatever its own logic does. */
export function sharedCodes(spec: Pick<OperationSpec, 'auth' | 'readsBody' | 'idempotent' | 'rateLimited'>): ErrorCode[] {
  return [
    // A malformed URL or query string, a NUL in a parameter; an unexpected failure; a lost database.
    'invalid_request',
    'internal_error',
    'service_unavailable',
    ...(spec.rateLimited === false ? [] : (['rate_limited'] as const)),
    ...(spec.auth === 'public' ? [] : (['unauthorized'] as const)),
    ...(spec.readsBody ? (['malformed_json', 'body_too_large', 'unsupported_media_type'] as const) : []),
    ...(spec.idempotent ? (['idempotency_key_in_use', 'idempotency_key_reused'] as const) : []),
  ];
}

/** Every code the operation can answer, by status (ascending), each list in ERROR_CODES order. */
export function codesByStatus(spec: OperationSpec): Map<number, ErrorCode[]> {
  const declared = new Set([...sharedCodes(spec), ...spec.errors]);
  const codes = ERROR_CODES.filter((code) => declared.has(code));
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(statusOf(code), [...(byStatus.get(statusOf(code)) ?? []), code]);
  return new Map([...byStatus.entries()].sort(([a], [b]) => a - b));
}

const RETRY_AFTER = { type: 'integer', minimum: 0, description: 'Seconds to wait before retrying' };

/** Response headers of the problem answers at a status, as far as this operation's codes send them. */
function problemHeaders(status: number, codes: ErrorCode[]): Record<string, object> | undefined {
  const headers: Record<string, object> = {};
  if (status === 503 || status === 429 || codes.includes('idempotency_key_in_use')) headers['Retry-After'] = RETRY_AFTER;
  if (codes.includes('rate_limited')) {
    headers['RateLimit-Policy'] = { type: 'string', description: 'rate_limited: the limit, e.g. `"default";q=1200;w=60`' };
    headers.RateLimit = { type: 'string', description: 'rate_limited: what is left, e.g. `"default";r=0;t=30`' };
  }
  if (codes.includes('unauthorized'))
    headers['WWW-Authenticate'] = { type: 'string', description: 'unauthorized: `Bearer realm="peerpay"`' };
  if (codes.includes('payment_required'))
    headers['PAYMENT-REQUIRED'] = { type: 'string', description: 'The x402 v2 PaymentRequired, base64 JSON (network eip155:137, amount)' };
  return Object.keys(headers).length > 0 ? headers : undefined;
}

function problemResponse(status: number, codes: ErrorCode[], spec: OperationSpec) {
  const members = spec.problemMembers?.[status];
  // The narrowing is an allOf member of its own (not properties beside allOf), so that the answer
  // is serialized in the Problem schema's order: type, title, status, detail, code, extensions.
  const narrowed = {
    type: 'object',
    properties: {
      status: { type: 'integer', enum: [status] },
      code: { type: 'string', enum: codes, description: `At this status: ${codes.join(', ')}` },
    },
  };
  const schema = { allOf: [{ $ref: 'Problem' }, ...(members ? [members] : []), narrowed] };
  // The generic example of a code is one shared component (openapi.ts); an operation's own is inline.
  const examples = Object.fromEntries(
    codes.map((code) => {
      const own = spec.problemExamples?.[code] ?? (code === 'invalid_request' ? invalidRequestExample(spec) : undefined);
      return [code, own ? { summary: titleOf(code), value: exampleProblem(code, own) } : { $ref: `#/components/examples/${code}` }];
    }),
  );
  return {
    description: `${STATUS_TEXT[status] ?? 'Error'}. Codes:\n${codes.map((code) => `- \`${code}\`: ${titleOf(code)}`).join('\n')}`,
    ...(problemHeaders(status, codes) ? { headers: problemHeaders(status, codes) } : {}),
    content: { [PROBLEM_MEDIA_TYPE]: { schema, examples } },
  };
}

const SUCCESS_TEXT: Record<number, string> = { 200: 'OK', 201: 'Created' };

/** Success responses described (the document would say "Default Response"), schemas otherwise as declared. */
function successes(responses: OperationSpec['responses']): Record<number, TSchema> {
  return Object.fromEntries(
    Object.entries(responses).map(([status, schema]) => [
      status,
      'description' in schema ? schema : { ...schema, description: SUCCESS_TEXT[Number(status)] ?? 'Success' },
    ]),
  );
}

type Part<S, K extends string> = S extends { [P in K]: infer T } ? T : undefined;

/** Route options (`config` and `schema`) for an operation; spread them into the route's options. */
export function operation<const S extends OperationSpec>(spec: S) {
  const byStatus = codesByStatus(spec);
  const problems = Object.fromEntries([...byStatus].map(([status, codes]) => [status, problemResponse(status, codes, spec)]));
  // Public routes need no key; optional ones take one (x402 needs none); the rest inherit bearer.
  const security: Record<string, string[]>[] | undefined =
    spec.auth === 'public' ? [] : spec.auth === 'optional' ? [{}, { bearer: [] }] : undefined;
  const schema = {
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    security,
    body: spec.body as Part<S, 'body'>,
    querystring: spec.querystring as Part<S, 'querystring'>,
    params: spec.params as Part<S, 'params'>,
    headers: spec.headers as Part<S, 'headers'>,
    response: { ...problems, ...successes(spec.responses) } as S['responses'] & Record<number, unknown>,
    // Machine-readable: every code this operation can answer, by status.
    'x-problem-codes': Object.fromEntries([...byStatus].map(([status, codes]) => [String(status), codes])),
    ...(spec.published === false ? { hide: true } : {}),
  };
  // Fastify warns about a request part named with no schema; leave absent parts out.
  for (const key of ['description', 'security', 'body', 'querystring', 'params', 'headers'] as const)
    if (schema[key] === undefined) delete schema[key];
  return {
    config: {
      auth: spec.auth,
      idempotent: spec.idempotent === true,
      ...(spec.idempotencyInTransaction ? { idempotencyInTransaction: true } : {}),
      authReadsBalances: spec.authReadsBalances === true,
      ...(spec.accountAlongsideKey ? { accountAlongsideKey: spec.accountAlongsideKey } : {}),
    },
    schema,
  };
}
