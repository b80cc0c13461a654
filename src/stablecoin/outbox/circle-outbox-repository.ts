// SQL for the outbox's Circle entries (WALLET_PROVIDER=circle, migration 0032). Every change of
// status is conditional on the status it leaves, so two workers that see one outcome record it once.
import type { Address, Hash } from 'viem';
import type { Db } from '../../db/database.js';
import type { Trx } from '../../db/transaction.js';
import type { CircleAsset, CircleOutboxRecord, OutboxPurpose } from './outbox-entry.js';

const MAX_ERROR_LENGTH = 500;

/**
 * Locks the custody row to the end of `trx`: the treasury's sends are decided one at a time, each
 * seeing what the earlier ones committed (what the hot wallet's nonce row does for self).
 */
export async function lockCircleSends(trx: Trx): Promise<void> {
  await trx.selectFrom('circle_custody').select('id').where('id', '=', 1).forUpdate().executeTakeFirstOrThrow();
}

export async function insertCircleEntry(
  trx: Trx,
  entry: {
    id: string;
    purpose: OutboxPurpose;
    referenceId: string;
    sender: Address;
    walletId: string;
    token: CircleAsset;
    destination: Address;
    amountMinor: bigint;
    now: Date;
  },
): Promise<CircleOutboxRecord> {
  await trx
    .insertInto('hot_wallet_outbox')
    .values({
      id: entry.id,
      provider: 'circle',
      purpose: entry.purpose,
      reference_id: entry.referenceId,
      sender: entry.sender,
      circle_wallet_id: entry.walletId,
      circle_token: entry.token,
      circle_destination: entry.destination,
      circle_amount: entry.amountMinor,
      status: 'signed',
      created_at: entry.now,
    })
    .execute();
  return {
    provider: 'circle',
    id: entry.id,
    purpose: entry.purpose,
    referenceId: entry.referenceId,
    sender: entry.sender,
    walletId: entry.walletId,
    token: entry.token,
    destination: entry.destination,
    amountMinor: entry.amountMinor,
    circleTransactionId: null,
    status: 'signed',
    txHash: null,
    blockNumber: null,
    lastBroadcastAt: null,
    createdAt: entry.now,
  };
}

/** Circle has the transfer (the first answer, or the same one found again by its idempotency key). */
export async function markCircleAccepted(
  db: Db,
  input: { id: string; circleTransactionId: string; state: string; at: Date },
): Promise<void> {
  await db
    .updateTable('hot_wallet_outbox')
    .set((eb) => ({
      status: 'broadcast',
      circle_transaction_id: input.circleTransactionId,
      circle_state: input.state,
      broadcast_attempts: eb('broadcast_attempts', '+', 1),
      last_broadcast_at: input.at,
      last_error: null,
    }))
    .where('id', '=', input.id)
    .where('status', '=', 'signed')
    .execute();
}

/** A state under way, remembered for the operator (nothing depends on it). */
export async function noteCircleState(db: Db, input: { id: string; state: string; txHash: Hash | null }): Promise<void> {
  await db
    .updateTable('hot_wallet_outbox')
    .set({ circle_state: input.state, ...(input.txHash ? { tx_hash: input.txHash.toLowerCase() } : {}) })
    .where('id', '=', input.id)
    .where('status', 'in', ['signed', 'broadcast'])
    .execute();
}

/** The final outcome (COMPLETE, or FAILED/CANCELLED/DENIED/refused); false when another worker recorded it first. */
export async function finishCircleEntry(
  db: Db,
  input: {
    id: string;
    status: 'confirmed' | 'reverted';
    state: string;
    txHash: Hash | null;
    blockNumber: bigint | null;
    error: string | null;
    at: Date;
  },
): Promise<boolean> {
  const result = await db
    .updateTable('hot_wallet_outbox')
    .set({
      status: input.status,
      circle_state: input.state,
      tx_hash: input.txHash?.toLowerCase() ?? null,
      block_number: input.blockNumber,
      last_error: input.error?.slice(0, MAX_ERROR_LENGTH) ?? null,
      finished_at: input.at,
      locked_until: null,
    })
    .where('id', '=', input.id)
    .where('status', 'in', ['signed', 'broadcast'])
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
