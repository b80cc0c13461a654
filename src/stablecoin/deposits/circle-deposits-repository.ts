// SQL for deposits with WALLET_PROVIDER=circle: whose Circle wallet an inbound transaction reached,
// whether a Circle transaction is recorded already, and the reconciliation poll's place in
// Circle's list (table circle_inbound_cursor, one row, every move a compare-and-set).
import { sql } from 'kysely';
import { getAddress, type Address } from 'viem';
import type { Db } from '../../db/database.js';

/** The account whose stablecoin wallet is this Circle wallet; undefined for any other wallet (the treasury's, another set's). */
export async function accountOfCircleWallet(db: Db, walletId: string): Promise<{ accountId: number; address: Address } | undefined> {
  const row = await db
    .selectFrom('accounts')
    .select(['id', 'deposit_address'])
    .where('wallet_id', '=', walletId)
    .where('deposit_address', 'is not', null)
    .executeTakeFirst();
  return row ? { accountId: row.id, address: getAddress(row.deposit_address!) } : undefined;
}

/** Whether a deposit with this Circle transaction id is recorded (credited, blocked or released). */
export async function circleDepositRecorded(db: Db, circleTransactionId: string): Promise<boolean> {
  const row = await db
    .selectFrom('chain_deposits')
    .select('id')
    .where('circle_transaction_id', '=', circleTransactionId)
    .executeTakeFirst();
  return row !== undefined;
}

export interface CircleInboundCursor {
  /** Where the pass under way reads from (an overlap before the last pass's end included). */
  from: Date;
  /** The pass's next page; null before its first. */
  pageAfter: string | null;
  /** The earliest creation time of a transaction this pass saw not yet credited but due to be. */
  holdAt: Date | null;
  /** The latest creation time this pass saw. */
  newest: Date | null;
}

const CURSOR = 'inbound';

function toDate(value: Date | string | null): Date | null {
  return value === null ? null : new Date(value);
}

/** The first cursor; a concurrent first round that inserted one already wins. */
export async function insertCircleCursor(db: Db, input: { from: Date; now: Date }): Promise<void> {
  await db
    .insertInto('circle_inbound_cursor')
    .values({
      name: CURSOR,
      from_time: input.from,
      page_after: null,
      hold_at: null,
      newest: null,
      leased_until: null,
      updated_at: input.now,
    })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

/**
 * Takes the round's lease on the cursor and returns the cursor; undefined when another process
 * holds a lease that has not run out, or there is no cursor yet.
 */
export async function leaseCircleCursor(db: Db, input: { now: Date; leaseMs: number }): Promise<CircleInboundCursor | undefined> {
  const row = await db
    .updateTable('circle_inbound_cursor')
    .set({ leased_until: new Date(input.now.getTime() + input.leaseMs) })
    .where('name', '=', CURSOR)
    .where((eb) => eb.or([eb('leased_until', 'is', null), eb('leased_until', '<', input.now)]))
    .returning(['from_time', 'page_after', 'hold_at', 'newest'])
    .executeTakeFirst();
  if (!row) return undefined;
  return { from: toDate(row.from_time)!, pageAfter: row.page_after, holdAt: toDate(row.hold_at), newest: toDate(row.newest) };
}

/** Ends the round's lease (`leasedUntil` as taken), unless it ran out and another round took it. */
export async function releaseCircleCursor(db: Db, leasedUntil: Date): Promise<void> {
  await db
    .updateTable('circle_inbound_cursor')
    .set({ leased_until: null })
    .where('name', '=', CURSOR)
    .where('leased_until', '=', leasedUntil)
    .execute();
}

/** Replaces `expected` by `next`; false (nothing written) when the stored cursor is no longer `expected`. */
export async function moveCircleCursor(
  db: Db,
  input: { expected: CircleInboundCursor; next: CircleInboundCursor; now: Date },
): Promise<boolean> {
  const { expected, next } = input;
  const result = await db
    .updateTable('circle_inbound_cursor')
    .set({ from_time: next.from, page_after: next.pageAfter, hold_at: next.holdAt, newest: next.newest, updated_at: input.now })
    .where('name', '=', CURSOR)
    .where('from_time', '=', expected.from)
    .where(sql<boolean>`page_after is not distinct from ${expected.pageAfter}`)
    .where(sql<boolean>`hold_at is not distinct from ${expected.holdAt}`)
    .where(sql<boolean>`newest is not distinct from ${expected.newest}`)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}
