// What the hot wallet outbox records about one transaction. An entry is created 'signed' (hash, raw
// bytes and nonce committed before anything is sent), becomes 'broadcast' once a node has taken it,
// and ends 'confirmed' (mined, succeeded, with the configured confirmations) or 'reverted'.
import type { Address, Hash, Hex } from 'viem';

export type OutboxPurpose = 'sweep' | 'withdrawal' | 'x402' | 'cold';
export type OutboxStatus = 'signed' | 'broadcast' | 'confirmed' | 'reverted';

/** What callers see of an entry (findOutboxEntry). */
export interface OutboxEntry {
  id: string;
  status: OutboxStatus;
  txHash: Hash;
  /** The block that mined it, once known. */
  blockNumber: bigint | null;
}

/** The whole row, for the outbox's own use. */
export interface OutboxRecord extends OutboxEntry {
  purpose: OutboxPurpose;
  referenceId: string;
  sender: Address;
  nonce: number;
  rawTx: Hex;
  broadcastAttempts: number;
  lastBroadcastAt: Date | null;
  createdAt: Date;
  /** Since when the current transaction stands: its creation, or the replacement that made it current. */
  currentSince: Date;
}

export function isFinal(status: OutboxStatus): boolean {
  return status === 'confirmed' || status === 'reverted';
}
