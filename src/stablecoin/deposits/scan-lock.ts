// One deposit watcher at a time (DESIGN §10). Within a process, a round that finds another round
// under way on the same database skips. Across processes on PostgreSQL, a round first takes a
// session-level advisory lock with pg_try_advisory_lock and skips when another process holds it.
//
// Why a session lock held for the whole round, across chain calls: it is not a lock on data (no
// query ever waits for it; every taker only tries), and its purpose is exactly to keep a second
// process from reading the same block range from the node at the same time. It lives on one
// connection taken from the pool for the round (a session lock belongs to its connection, so it
// must be released on that same one before the connection goes back to the pool), and PostgreSQL
// frees it by itself if the process or its connection dies. The writes of the round do not run on
// that connection and do not depend on the lock for correctness: each deposit's unique index and
// the cursor's compare-and-set keep them right even if two rounds did overlap.
//
// PGlite is one process with one connection: a session lock there would be re-entrant (and
// pinning the only connection would stall every request), so the in-process guard is the lock.
import { sql } from 'kysely';
import type { Database, Db } from '../../db/database.js';

/** Arbitrary but fixed: the first 8 bytes of sha256("peerpay deposit watcher") read as a signed 64-bit integer. */
export const DEPOSIT_WATCHER_LOCK_KEY = -6447010895921937697n;

const running = new WeakSet<object>();

export type Guarded<T> = { ran: true; value: T } | { ran: false };

export async function withDepositScanLock<T>(deps: { db: Db; database: Database }, round: () => Promise<T>): Promise<Guarded<T>> {
  if (running.has(deps.db)) return { ran: false };
  running.add(deps.db);
  try {
    if (deps.database.kind !== 'postgres') return { ran: true, value: await round() };
    return await deps.db.connection().execute(async (connection): Promise<Guarded<T>> => {
      const taken = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${DEPOSIT_WATCHER_LOCK_KEY}::bigint) as locked`.execute(
        connection,
      );
      if (!taken.rows[0]?.locked) return { ran: false };
      try {
        return { ran: true, value: await round() };
      } finally {
        await sql`select pg_advisory_unlock(${DEPOSIT_WATCHER_LOCK_KEY}::bigint)`.execute(connection);
      }
    });
  } finally {
    running.delete(deps.db);
  }
}
