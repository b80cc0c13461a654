// Errors that services raise on purpose. Each carries a stable snake_case code; the HTTP layer maps
// every code to a status through an exhaustive table (http/plugins/problem-details.ts), so adding a
// code without choosing its status does not compile.
export const ERROR_CODES = [
  'invalid_request',
  'malformed_json',
  'invalid_signature',
  'invalid_amount',
  'amount_too_large',
  'amount_too_small',
  'unsupported_currency',
  'unsupported_chain',
  'invalid_address',
  'invalid_email',
  'invalid_field',
  'no_default_address',
  'self_transfer',
  'insufficient_balance',
  'unauthorized',
  'invalid_credentials',
  'card_setup_required',
  'card_declined',
  'card_authentication_required',
  'card_disputed',
  'account_in_debt',
  'account_frozen',
  'destination_sanctioned',
  'operator_forbidden',
  'payment_required',
  'not_found',
  'recipient_not_found',
  'ach_setup_required',
  'already_exists',
  'idempotency_key_in_use',
  'idempotency_key_reused',
  'link_expired',
  'link_used',
  'body_too_large',
  'unsupported_media_type',
  'too_many_attempts',
  'rate_limited',
  'limit_exceeded',
  'limit_reached',
  'processor_unavailable',
  'funding_unavailable',
  'withdrawal_unavailable',
  'screening_unavailable',
  'service_unavailable',
  'busy',
  'not_ready',
  'internal_error',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    /** Extra members of the problem document that the contract names, e.g. needsBankDebitSetup. */
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export function assert(condition: unknown, message: string): asserts condition {
  // Invariant checks: a failure is a bug in peerpay, never a user error.
  if (!condition) throw new Error(`invariant violated: ${message}`);
}

/**
 * The extension members of the problem document each code carries (beside type, title, status,
 * detail, code and requestId): `always`, or only `sometimes` (e.g. `errors` only from schema
 * validation). The OpenAPI document publishes it (`x-members-by-code` on Problem), and the SDK
 * types each code's problem from it, so a client reads `minimum` only where `amount_too_small` is.
 */
export const PROBLEM_MEMBERS = {
  invalid_request: { errors: 'sometimes' },
  amount_too_small: { minimum: 'always' },
  ach_setup_required: { needsBankDebitSetup: 'always', transferId: 'sometimes' },
  card_declined: { transferId: 'always' },
  card_authentication_required: { transferId: 'always' },
  account_in_debt: { owed: 'always' },
  limit_exceeded: { limit: 'always', window: 'always', remaining: 'always' },
  payment_required: { price: 'always', x402Version: 'always', error: 'always', accepts: 'always' },
  not_ready: { checks: 'always' },
} as const satisfies Partial<Record<ErrorCode, Record<string, 'always' | 'sometimes'>>>;
