// Reads a payment presented with a request: X-PAYMENT (x402 v1) or PAYMENT-SIGNATURE (v2), both
// base64 JSON. @x402/core decodes the header and checks the PaymentPayload shape of either
// version; the exact-EVM payload inside (an EIP-3009 authorization and its signature) is checked
// here field by field, so that nothing malformed reaches a signature check, the database or the
// chain. Anything unreadable is `invalid_payload` (or `invalid_x402_version`).
import { decodePaymentSignatureHeader } from '@x402/core/http';
import { parsePaymentPayload } from '@x402/core/schemas';
import type { PaymentPayload, PaymentPayloadV1, PaymentRequirements } from '@x402/core/types';
import { getAddress, type Address, type Hex } from 'viem';
import { PaymentRefused } from './x402-reasons.js';

/** Far above any real payment header (about 1 KB), far below what would cost us to parse. */
const MAX_HEADER_LENGTH = 8192;
const UINT256_DECIMAL = /^(0|[1-9]\d{0,77})$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const BYTES32 = /^0x[0-9a-fA-F]{64}$/;
/** 65-byte ECDSA signatures only: peerpay relays the (v, r, s) form (see docs/decisions/0009-x402.md). */
const ECDSA_SIGNATURE = /^0x[0-9a-fA-F]{130}$/;
const UINT256_MAX = 2n ** 256n - 1n;

export interface EvmAuthorization {
  from: Address;
  to: Address;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  /** Lower-case 0x + 64 hex digits. */
  nonce: Hex;
}

export interface PresentedPayment {
  version: 1 | 2;
  scheme: string;
  network: string;
  /** v2 only: the requirements the client says it accepted. */
  accepted: PaymentRequirements | null;
  authorization: EvmAuthorization;
  signature: Hex;
  /** The decoded payload as the facilitator (built-in or external) takes it. */
  payload: PaymentPayload | PaymentPayloadV1;
}

export function readPaymentHeader(header: string, expectedVersion: 1 | 2): PresentedPayment {
  if (header.length === 0 || header.length > MAX_HEADER_LENGTH) throw refused('the payment header is empty or too long');
  let decoded: unknown;
  try {
    decoded = decodePaymentSignatureHeader(header.trim());
  } catch {
    throw refused('the payment header is not base64-encoded JSON');
  }
  const version = (decoded as { x402Version?: unknown } | null)?.x402Version;
  if (version !== 1 && version !== 2) throw new PaymentRefused('invalid_x402_version', 'x402Version must be 1 or 2');
  if (version !== expectedVersion) {
    throw new PaymentRefused(
      'invalid_x402_version',
      `send x402 version ${version} payments in ${version === 1 ? 'X-PAYMENT' : 'PAYMENT-SIGNATURE'}`,
    );
  }
  const parsed = parsePaymentPayload(decoded);
  if (!parsed.success) throw refused('the payment payload does not have the x402 PaymentPayload shape');
  const payload = parsed.data;
  const { authorization, signature } = readExactEvmPayload(payload.payload);
  if (payload.x402Version === 1) {
    const v1 = payload as PaymentPayloadV1;
    return { version: 1, scheme: v1.scheme, network: v1.network, accepted: null, authorization, signature, payload: v1 };
  }
  const v2 = payload as PaymentPayload;
  return {
    version: 2,
    scheme: v2.accepted.scheme,
    network: v2.accepted.network,
    accepted: v2.accepted,
    authorization,
    signature,
    payload: v2,
  };
}

function readExactEvmPayload(raw: Record<string, unknown>): { authorization: EvmAuthorization; signature: Hex } {
  const signature = raw.signature;
  const auth = raw.authorization as Record<string, unknown> | undefined;
  if (typeof signature !== 'string' || typeof auth !== 'object' || auth === null) {
    throw refused('an exact EVM payment carries `signature` and `authorization`');
  }
  if (!ECDSA_SIGNATURE.test(signature)) {
    throw new PaymentRefused(
      'invalid_exact_evm_payload_signature',
      'the signature must be a 65-byte ECDSA signature (0x + 130 hex digits)',
    );
  }
  const text = (name: string, pattern: RegExp): string => {
    const value = auth[name];
    if (typeof value !== 'string' || !pattern.test(value)) throw refused(`authorization.${name} is missing or malformed`);
    return value;
  };
  const uint = (name: string): bigint => {
    const value = BigInt(text(name, UINT256_DECIMAL));
    if (value > UINT256_MAX) throw refused(`authorization.${name} is larger than a uint256`);
    return value;
  };
  return {
    authorization: {
      from: getAddress(text('from', ADDRESS).toLowerCase()),
      to: getAddress(text('to', ADDRESS).toLowerCase()),
      value: uint('value'),
      validAfter: uint('validAfter'),
      validBefore: uint('validBefore'),
      nonce: text('nonce', BYTES32).toLowerCase() as Hex,
    },
    signature: signature as Hex,
  };
}

function refused(detail: string): PaymentRefused {
  return new PaymentRefused('invalid_payload', detail);
}
