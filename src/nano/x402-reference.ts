// How an on-chain x402 payment is named outside its own table: the outbox reference of its relay
// transaction and its ledger operation. Derived from (payer, nonce), which the token contract
// itself treats as the authorization's identity, so that a retry can never send a second relay.
import type { Address, Hex } from 'viem';

export function x402OutboxReference(payer: Address, nonce: Hex): string {
  return `x402:${payer.toLowerCase()}:${nonce.toLowerCase()}`;
}

export function x402OperationId(paymentId: string): string {
  return `x402:${paymentId}`;
}
