// SQL for the places of peerpay's chain scans (table chain_scan_cursors, one row per scan: the
// deposit watcher's, the custody check's scan of what the cold addresses send). Every change
// is a compare-and-set on the whole cursor as the scan read it, so that a scan whose view is stale
// (another one moved the cursor meanwhile) changes nothing and stops its round.
import { sql } from 'kysely';
import type { Hash } from 'viem';
import type { Db } from '../db/database.js';
import type { Trx } from '../db/transaction.js';

/** The scans that keep a place on the chain. */
export type ScanName = 'deposits' | 'cold-outflows';

export interface ScanCursor {
  /** First block not yet fully read. */
  nextBlock: bigint;
  /** Hash of block nextBlock - 1 when it was read; null before the first range. */
  anchorHash: Hash | null;
  /** The range under way, [nextBlock, rangeTo], and the hash rangeTo had when it began. */
  range: { to: bigint; toHash: Hash; accountsAfter: number } | null;
}

export async function readCursor(db: Db, name: ScanName): Promise<ScanCursor | undefined> {
  const row = await db.selectFrom('chain_scan_cursors').selectAll().where('name', '=', name).executeTakeFirst();
  if (!row) return undefined;
  return {
    nextBlock: BigInt(row.next_block),
    anchorHash: row.anchor_hash as Hash | null,
    range:
      row.range_to === null ? null : { to: BigInt(row.range_to), toHash: row.range_to_hash as Hash, accountsAfter: row.accounts_after },
  };
}

/** The first cursor; a concurrent first round that inserted one already wins. */
export async function insertCursor(db: Db, input: { name: ScanName; nextBlock: bigint; now: Date }): Promise<void> {
  await db
    .insertInto('chain_scan_cursors')
    .values({
      name: input.name,
      next_block: input.nextBlock,
      anchor_hash: null,
      range_to: null,
      range_to_hash: null,
      accounts_after: 0,
      updated_at: input.now,
    })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

/** Replaces `expected` by `next`; false (nothing written) when the stored cursor is no longer `expected`. */
export async function moveCursor(
  db: Db | Trx,
  input: { name: ScanName; expected: ScanCursor; next: ScanCursor; now: Date },
): Promise<boolean> {
  const { expected, next } = input;
  const result = await db
    .updateTable('chain_scan_cursors')
    .set({
      next_block: next.nextBlock,
      anchor_hash: next.anchorHash,
      range_to: next.range?.to ?? null,
      range_to_hash: next.range?.toHash ?? null,
      accounts_after: next.range?.accountsAfter ?? 0,
      updated_at: input.now,
    })
    .where('name', '=', input.name)
    .where('next_block', '=', expected.nextBlock)
    .where(sql<boolean>`anchor_hash is not distinct from ${expected.anchorHash}`)
    .where(sql<boolean>`range_to is not distinct from ${expected.range?.to ?? null}`)
    .where('accounts_after', '=', expected.range?.accountsAfter ?? 0)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}
