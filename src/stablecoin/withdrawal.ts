// A withdrawal: tokens leave peerpay for an external Polygon address. The user's balance gives
// `gross`; `fee` (1.49%, half-up) stays with peerpay and `net` goes out on chain from the hot wallet.
// `pending` from the moment the money is reserved until the chain transaction has the configured
// confirmations (`complete`), or until it reverts or could not be sent (`failed`, gross refunded).
import type { Address, Hash } from 'viem';
import type { Token } from '../money/assets.js';
import { formatMinorTrimmed } from '../money/amount.js';

export type WithdrawalStatus = 'pending' | 'complete' | 'failed';

export interface Withdrawal {
  id: string;
  accountId: number;
  currency: Token;
  /** EIP-55 checksummed. */
  address: Address;
  grossMinor: bigint;
  feeMinor: bigint;
  netMinor: bigint;
  status: WithdrawalStatus;
  /**
   * Why it failed: `reverted` (on chain), `not_sent` (refused before anything was signed),
   * `account_frozen` (the account was frozen before it was signed; decision 0035) or
   * `destination_sanctioned` (listed before it was signed).
   */
  failureCode: string | null;
  txHash: Hash | null;
  idempotencyKey: string | null;
  createdAt: Date;
  completedAt: Date | null;
}

/** What a withdrawal counts towards its account's limits (DESIGN §17): the gross (fee included), when it was asked for. */
export function limitVolumeOf(w: Withdrawal): { accountId: number; currency: Token; amountMinor: bigint; at: Date } {
  return { accountId: w.accountId, currency: w.currency, amountMinor: w.grossMinor, at: w.createdAt };
}

/** The ledger operation that reserved the money; its completion and refund are named after it. */
export function withdrawalOperationId(withdrawalId: string): string {
  return `withdrawal:${withdrawalId}`;
}

/** The message the client forwards to its user unchanged. */
export function withdrawalNote(w: Withdrawal, confirmations: number): string {
  const net = `${formatMinorTrimmed(w.netMinor, w.currency)} ${w.currency}`;
  switch (w.status) {
    case 'pending':
      if (w.txHash === null)
        return `Accepted: ${net} will be sent on Polygon to ${w.address} as soon as peerpay's hot wallet holds it (usually within minutes); the amount is reserved from your balance meanwhile.`;
      return `Sending ${net} on Polygon to ${w.address}; it arrives after ${confirmations} confirmation${confirmations === 1 ? '' : 's'}, usually within seconds to a minute.`;
    case 'complete':
      return `Sent ${net} on Polygon to ${w.address}.`;
    case 'failed':
      return `This withdrawal failed and nothing was sent; ${formatMinorTrimmed(w.grossMinor, w.currency)} ${w.currency} went back to your balance.`;
  }
}
