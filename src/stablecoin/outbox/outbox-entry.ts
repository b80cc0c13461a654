// What the hot wallet outbox records about one transaction. An entry is created 'signed' (hash, raw
// bytes and nonce committed before anything is sent), becomes 'broadcast' once a node has taken it,
// and ends 'confirmed' (mined, succeeded, with the configured confirmations) or 'reverted'.
import type { Address, Hash, Hex } from 'viem';

/** 'gas': the treasury's POL to a Circle EOA wallet before its sweep (CIRCLE_ACCOUNT_TYPE=EOA). */
export type OutboxPurpose = 'sweep' | 'withdrawal' | 'x402' | 'cold' | 'gas';
/** What a Circle transfer moves: a stablecoin, or the chain's native token. */
export type CircleAsset = 'USDC' | 'EURC' | 'POL';

export type OutboxStatus = 'signed' | 'broadcast' | 'confirmed' | 'reverted';

/** What callers see of an entry (findOutboxEntry). */
export interface OutboxEntry {
  id: string;
  status: OutboxStatus;
  /** Known from the start for a transaction peerpay signs; for one Circle sends, once Circle says COMPLETE (or FAILED after broadcasting). */
  txHash: Hash | null;
  /** The block that mined it, once known. */
  blockNumber: bigint | null;
}

/** The whole row of a transaction peerpay signs itself, for the outbox's own use. */
export interface OutboxRecord extends OutboxEntry {
  provider: 'self';
  txHash: Hash;
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

/**
 * The whole row of a transfer Circle sends (WALLET_PROVIDER=circle): what to ask Circle, recorded
 * before asking, and Circle's transaction once it answered. `signed`: recorded, Circle's answer not
 * seen yet; `broadcast`: Circle has it; `confirmed`: COMPLETE; `reverted`: failed or refused.
 */
export interface CircleOutboxRecord extends OutboxEntry {
  provider: 'circle';
  purpose: OutboxPurpose;
  referenceId: string;
  /** The sending wallet's address (the treasury's, or a user's for a sweep). */
  sender: Address;
  walletId: string;
  /** POL (the native token, amount in wei) only for a gas top-up. */
  token: CircleAsset;
  destination: Address;
  amountMinor: bigint;
  circleTransactionId: string | null;
  lastBroadcastAt: Date | null;
  createdAt: Date;
}

export type AnyOutboxRecord = OutboxRecord | CircleOutboxRecord;
