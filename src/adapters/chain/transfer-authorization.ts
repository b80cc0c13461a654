// EIP-3009 transfer authorizations: the holder of a deposit address signs "move this much to the hot
// wallet" and the hot wallet submits it, paying the gas, so deposit addresses never need any. The
// EIP-712 types here are the ones Circle's tokens and the sandbox token verify.
import { parseSignature, type Address, type Hex, type LocalAccount } from 'viem';
import { randomBytes } from 'node:crypto';
import type { TokenDomain, TransferAuthorization } from './chain-adapter.js';

export const transferWithAuthorizationTypes = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

/** EIP-3009 nonces are random 32 bytes, not a counter: authorizations may be used in any order. */
export function randomAuthorizationNonce(): Hex {
  return `0x${randomBytes(32).toString('hex')}`;
}

export async function signTransferAuthorization(options: {
  signer: LocalAccount;
  domain: TokenDomain;
  to: Address;
  value: bigint;
  /** Seconds since the epoch; the authorization is valid strictly after it and strictly before validBefore. */
  validAfter: bigint;
  validBefore: bigint;
  nonce?: Hex;
}): Promise<TransferAuthorization> {
  const message = {
    from: options.signer.address,
    to: options.to,
    value: options.value,
    validAfter: options.validAfter,
    validBefore: options.validBefore,
    nonce: options.nonce ?? randomAuthorizationNonce(),
  };
  const signature = await options.signer.signTypedData({
    domain: options.domain,
    types: transferWithAuthorizationTypes,
    primaryType: 'TransferWithAuthorization',
    message,
  });
  return { ...message, signature };
}

/** The (v, r, s) form that every EIP-3009 token accepts; the bytes form is newer (USDC 2.2). */
export function splitSignature(signature: Hex): { v: number; r: Hex; s: Hex } {
  const parsed = parseSignature(signature);
  const v = parsed.v !== undefined ? Number(parsed.v) : parsed.yParity + 27;
  return { v, r: parsed.r, s: parsed.s };
}
