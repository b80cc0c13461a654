// Schemas used by many routes: the problem document and the pieces of the contract's resources.
import { Type, type TSchema } from '@fastify/type-provider-typebox';
import { ERROR_CODES } from '../../platform/errors.js';

export const ProblemSchema = Type.Object(
  {
    type: Type.String({ description: 'URI naming the problem type' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.Union(ERROR_CODES.map((code) => Type.Literal(code)), { description: 'Stable, snake_case error code' }),
    requestId: Type.Optional(Type.String()),
  },
  { $id: 'Problem', additionalProperties: true, description: 'RFC 9457 problem document' },
);

const STATUS_TEXT: Record<number, string> = {
  400: 'Missing or invalid request fields',
  401: 'Invalid API key or incorrect password',
  402: 'Payment required: card missing or declined',
  404: 'Not found',
  409: 'Conflict with the current state',
  410: 'Link used or expired',
  413: 'Request body too large',
  415: 'Unsupported content type',
  422: 'Idempotency key reused with a different request',
  429: 'Too many requests',
  500: 'Server error; retry after a brief wait',
  503: 'Temporarily unavailable (a dependency such as the database or the chain cannot be reached); retry after Retry-After',
};

/** Response schemas for the error statuses a route can answer, all as problem documents. */
export function problems(...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  // Every route reads the database, so any of them can answer 503 service_unavailable when it is
  // lost; and every route refuses a malformed request (a NUL in the query string, a broken URL) with 400.
  for (const status of new Set([...statuses, 400, 429, 500, 503])) {
    out[status] = Type.Ref('Problem', { description: STATUS_TEXT[status] ?? 'Error' }) as unknown as TSchema;
  }
  return out;
}

export const HandleSchema = Type.String({ pattern: '^PA-[A-Z0-9]{8}$', description: 'PA- followed by 8 characters', examples: ['PA-7KQ2M9XD'] });
export const EmailSchema = Type.String({ minLength: 3, maxLength: 254, description: 'E-mail address' });
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Makes a retry of this request safe: the first response is replayed' })),
});
