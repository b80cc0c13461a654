// An internal stablecoin transfer: one user's token balance to another's, fee deducted from the
// amount (DESIGN §4). It moves only ledger balances, so it is `complete` the moment it is recorded;
// there is no other state.
import type { Token } from '../money/assets.js';

export interface StablecoinTransfer {
  id: string;
  senderAccountId: number;
  recipientAccountId: number;
  currency: Token;
  /** Before fee. */
  amountMinor: bigint;
  feeMinor: bigint;
  status: 'complete';
  idempotencyKey: string | null;
  createdAt: Date;
}

/** What the recipient received. */
export function netOf(transfer: Pick<StablecoinTransfer, 'amountMinor' | 'feeMinor'>): bigint {
  return transfer.amountMinor - transfer.feeMinor;
}

/** The ledger operation that moved a transfer's money. */
export function transferOperationId(transferId: string): string {
  return `stablecoin:${transferId}`;
}
