// Schemas used by many routes: the problem document and the pieces of the contract's resources.
import { Type, type TSchemaOptions } from 'typebox';
import { ERROR_CODES, PROBLEM_MEMBERS } from '../../platform/errors.js';

/**
 * A closed set of strings, documented as `{type: string, enum: [...]}` (one enum, which client
 * generators turn into a union type) and validated with ajv's `enum`, whose refusals name the
 * allowed values ("paymentMethod must be one of instant, ach").
 */
export function StringEnum<const T extends readonly string[]>(values: T, options: TSchemaOptions = {}) {
  return Type.Enum(values as unknown as T[number][], { type: 'string', ...options });
}

const ValidationError = Type.Object(
  {
    detail: Type.String({ description: 'What is wrong with this field or parameter' }),
    pointer: Type.Optional(Type.String({ description: 'JSON Pointer (as a URI fragment) into the request body, e.g. `#/paymentMethod`' })),
    parameter: Type.Optional(Type.String({ description: 'The query or path parameter, e.g. `limit`' })),
    header: Type.Optional(Type.String({ description: 'The request header, lower case, e.g. `idempotency-key`' })),
  },
  { description: 'One refused part of the request (RFC 9457 §3)' },
);

const ReadinessCheck = Type.Object({ status: StringEnum(['pass', 'fail']), detail: Type.Optional(Type.String()) });

export const ProblemSchema = Type.Object(
  {
    type: Type.String({
      format: 'uri',
      description: 'URI naming the problem type: https://peerpay.dev/problems/ and the code with hyphens',
    }),
    title: Type.String({ description: 'Short, human-readable summary of the problem type; the same for every occurrence of a code' }),
    status: Type.Integer({ minimum: 400, maximum: 599, description: 'The HTTP status code of this answer' }),
    detail: Type.String({ description: 'What went wrong this time, and what to do about it; for people, not to be parsed' }),
    code: StringEnum(ERROR_CODES, { description: 'Stable, snake_case error code: what clients branch on' }),
    requestId: Type.Optional(
      Type.String({ description: 'The id of this request, also in the X-Request-Id header; quote it when reporting a problem' }),
    ),
    errors: Type.Optional(
      Type.Array(ValidationError, { description: '`invalid_request` from schema validation: the refused field or parameter' }),
    ),
    minimum: Type.Optional(
      Type.String({
        description: '`amount_too_small`: the smallest amount accepted, as a decimal string in major units',
        examples: ['0.50'],
      }),
    ),
    needsBankDebitSetup: Type.Optional(
      Type.Boolean({ description: '`ach_setup_required`: always true; call POST /agent/bank-debit-link' }),
    ),
    transferId: Type.Optional(
      Type.String({
        description:
          '`card_declined`, `card_authentication_required`, `ach_setup_required` after an attempt: the failed transfer, as recorded',
      }),
    ),
    owed: Type.Optional(
      Type.String({
        description: '`account_in_debt`: what the account owes in this currency, as a decimal string in major units',
        examples: ['12.50'],
      }),
    ),
    limit: Type.Optional(
      Type.String({
        description: '`limit_exceeded`: the limit that would be exceeded, as a decimal string in major units of the currency sent',
        examples: ['10000.00'],
      }),
    ),
    window: Type.Optional(
      StringEnum(['day', 'month'], {
        description: '`limit_exceeded`: the limit’s window, a rolling 24 hours (`day`) or 30 days (`month`)',
      }),
    ),
    remaining: Type.Optional(
      Type.String({
        description: '`limit_exceeded`: what is left of the limit in that window, as a decimal string; `Retry-After` says when more is',
        examples: ['250.00'],
      }),
    ),
    checks: Type.Optional(Type.Record(Type.String(), ReadinessCheck, { description: '`not_ready`: every readiness check and its result' })),
  },
  {
    $id: 'Problem',
    additionalProperties: true,
    'x-members-by-code': PROBLEM_MEMBERS,
    description:
      'RFC 9457 problem document, sent as `application/problem+json` for every refusal and failure. Branch on `code`; the members after `code` are extensions present only for the codes that name them. A 402 from the x402 micro-endpoints is also an x402 v1 PaymentRequired body.',
  },
);

export const HandleSchema = Type.String({
  pattern: '^PA-[A-Z0-9]{8}$',
  description: 'PA- followed by 8 characters',
  examples: ['PA-7KQ2M9XD'],
});
export const EmailSchema = Type.String({ minLength: 3, maxLength: 254, description: 'E-mail address', examples: ['ada@example.com'] });
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'Makes a retry of this request safe: the first response is replayed',
      examples: ['3f1c2d9e-6b7a-4c1e-9f0d-2a8b5e7c4d31'],
    }),
  ),
});
