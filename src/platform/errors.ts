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
  'velocity_limit',
  'limit_reached',
  'processor_unavailable',
  'funding_unavailable',
  'withdrawal_unavailable',
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

export function invalidRequest(detail: string): AppError {
  return new AppError('invalid_request', detail);
}

export function assert(condition: unknown, message: string): asserts condition {
  // Invariant checks: a failure is a bug in peerpay, never a user error.
  if (!condition) throw new Error(`invariant violated: ${message}`);
}
