// Why a payment was refused, in the words of the x402 specification (its "Error Handling" list and
// the ErrorReasons of the reference x402 package), which every 402 answer carries in `error`.
// @x402/evm's exact scheme reports its own, finer reason strings; they are mapped here onto the
// specification's, so that clients of either protocol version see the same vocabulary.
export const X402_REASONS = [
  'insufficient_funds',
  'invalid_exact_evm_payload_authorization_valid_after',
  'invalid_exact_evm_payload_authorization_valid_before',
  'invalid_exact_evm_payload_authorization_value',
  'invalid_exact_evm_payload_signature',
  'invalid_exact_evm_payload_recipient_mismatch',
  'invalid_exact_evm_payload_undeployed_smart_wallet',
  'invalid_network',
  'invalid_payload',
  'invalid_payment_requirements',
  'invalid_scheme',
  'invalid_x402_version',
  'invalid_transaction_state',
  // The reference package's name for an authorization that was already settled (or is being
  // settled by another request): a replayed payment header.
  'duplicate_settlement',
  'unexpected_verify_error',
  'unexpected_settle_error',
] as const;

export type X402Reason = (typeof X402_REASONS)[number];

const FROM_LIBRARY: Readonly<Record<string, X402Reason>> = {
  invalid_exact_evm_scheme: 'invalid_scheme',
  invalid_exact_evm_network_mismatch: 'invalid_network',
  invalid_exact_evm_missing_eip712_domain: 'invalid_payment_requirements',
  invalid_exact_evm_token_name_mismatch: 'invalid_payment_requirements',
  invalid_exact_evm_token_version_mismatch: 'invalid_payment_requirements',
  asset_not_deployed_contract: 'invalid_payment_requirements',
  invalid_exact_evm_eip3009_not_supported: 'invalid_payment_requirements',
  invalid_exact_evm_signature: 'invalid_exact_evm_payload_signature',
  invalid_exact_evm_failed_to_parse_signature: 'invalid_exact_evm_payload_signature',
  invalid_exact_evm_recipient_mismatch: 'invalid_exact_evm_payload_recipient_mismatch',
  invalid_exact_evm_authorization_value: 'invalid_exact_evm_payload_authorization_value',
  invalid_exact_evm_payload_authorization_value_mismatch: 'invalid_exact_evm_payload_authorization_value',
  eip6492_factory_not_allowed: 'invalid_exact_evm_payload_undeployed_smart_wallet',
  smart_wallet_deployment_failed: 'invalid_exact_evm_payload_undeployed_smart_wallet',
  invalid_exact_evm_insufficient_balance: 'insufficient_funds',
  invalid_exact_evm_nonce_already_used: 'duplicate_settlement',
  invalid_exact_evm_transaction_simulation_failed: 'invalid_transaction_state',
  invalid_exact_evm_transaction_failed: 'invalid_transaction_state',
  invalid_exact_evm_transfer_event_mismatch: 'invalid_transaction_state',
  invalid_transaction_state: 'invalid_transaction_state',
  unsupported_payload_type: 'invalid_payload',
};

function isX402Reason(value: string): value is X402Reason {
  return (X402_REASONS as readonly string[]).includes(value);
}

/** The specification's reason for whatever a facilitator (built-in or external) answered. */
export function specReason(reason: string | undefined, fallback: 'unexpected_verify_error' | 'unexpected_settle_error'): X402Reason {
  if (reason === undefined) return fallback;
  if (isX402Reason(reason)) return reason;
  return FROM_LIBRARY[reason] ?? fallback;
}

/** A refusal of a payment: answered 402 with `reason`, nothing served, nothing settled. */
export class PaymentRefused extends Error {
  override name = 'PaymentRefused';
  constructor(
    readonly reason: X402Reason,
    readonly detail: string,
  ) {
    super(`${reason}: ${detail}`);
  }
}
