// SQL for reading and expiring events.
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

export interface EventRow {
  seq: bigint;
  id: string;
  type: string;
  data: unknown;
  createdAt: Date;
}

/** An event's place in GET /events' order: its writing transaction, then its number. */
export interface EventPosition {
  xid: string;
  seq: bigint;
}

export const START: EventPosition = Object.freeze({ xid: '0', seq: 0n });

export async function findEventPosition(db: Db, input: { accountId: number; id: string }): Promise<EventPosition | undefined> {
  return db
    .selectFrom('events')
    .select(['xid', 'seq'])
    .where('id', '=', input.id)
    .where('account_id', '=', input.accountId)
    .executeTakeFirst();
}

/** How long a list waits for the transactions running when it was asked for (see below). */
const SETTLE_ROUNDS = 200;
const SETTLE_PAUSE_MS = 5;

/**
 * The visibility horizon of this database (decision 0039): the oldest transaction id still running
 * in it (its 32-bit `backend_xid` widened to the xid8 it stands for, which is within 2^31 below the
 * snapshot's xmax), or xmax when none runs. Every event of a transaction below it is committed or
 * gone for good; every transaction still to commit here has an id at or above it. Transactions of
 * other databases on the same server do not hold it back.
 */
async function horizon(db: Db): Promise<{ horizon: bigint; xmax: bigint }> {
  const result = await sql<{ horizon: string; xmax: string }>`
    with s as (select pg_snapshot_xmax(pg_current_snapshot())::text::bigint as xmax)
    select s.xmax::text as xmax,
           coalesce(min(s.xmax - ((s.xmax - a.backend_xid::text::bigint) & 4294967295)), s.xmax)::text as horizon
    from s left join pg_stat_activity a
      on a.datname = current_database() and a.backend_xid is not null and a.pid <> pg_backend_pid()
    group by s.xmax`.execute(db);
  const row = result.rows[0]!;
  return { horizon: BigInt(row.horizon), xmax: BigInt(row.xmax) };
}

/**
 * Waits, up to about a second, until every transaction of this database that was running when
 * called has ended, so that the list shows every event committed before the request
 * (read-your-writes), and answers the horizon to list under. Peerpay's transactions last
 * milliseconds; one left open only makes the list shorter for now, never wrong.
 */
export async function settledHorizon(db: Db): Promise<bigint> {
  const first = await horizon(db);
  let latest = first.horizon;
  for (let round = 0; round < SETTLE_ROUNDS && latest < first.xmax; round++) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_PAUSE_MS));
    latest = (await horizon(db)).horizon;
  }
  return latest;
}

/**
 * The account's events after `after` in commit order (decision 0039): by writing transaction, then
 * number, and only those of transactions below `horizon` (settledHorizon). A transaction still
 * running can only add events after the last one listed, never before it, so a client's cursor
 * never passes an event it has not seen.
 */
export async function listEventsAfter(
  db: Db,
  input: { accountId: number; after: EventPosition; horizon: bigint; limit: number },
): Promise<EventRow[]> {
  const rows = await db
    .selectFrom('events')
    .select(['seq', 'id', 'type', 'data', 'created_at'])
    .where('account_id', '=', input.accountId)
    .where(sql<boolean>`(xid, seq) > (${input.after.xid}::xid8, ${input.after.seq}::bigint)`)
    .where(sql<boolean>`xid < ${String(input.horizon)}::xid8`)
    .orderBy('xid')
    .orderBy('seq')
    .limit(input.limit)
    .execute();
  return rows.map((r) => ({ seq: r.seq, id: r.id, type: r.type, data: r.data, createdAt: r.created_at }));
}

/**
 * Deletes those of the `limit` oldest events (by `seq`, the primary key) created before `before`,
 * their deliveries and attempts with them. `created_at` has no index (each transfer would write two
 * entries into it): `seq` is taken at insert, in the order events are created but for the moments
 * their transactions overlap, so the oldest page by `seq` is the oldest by creation, and an event
 * that happens to sit behind a younger one is deleted a round later, never too early.
 */
export async function deleteEventsBefore(db: Db, input: { before: Date; limit: number }): Promise<number> {
  const oldest = db.selectFrom('events').select('seq').orderBy('seq').limit(input.limit);
  const result = await db.deleteFrom('events').where('seq', 'in', oldest).where('created_at', '<', input.before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
