import { sql, type Kysely } from 'kysely';

// GET /events in commit order (decision 0039). `seq` is taken when an event is inserted, but the
// transactions that insert events commit in any order, so paging by `seq` alone could move a
// client's cursor past an event that became visible later. Each event now records the id of the
// transaction that wrote it; the list is ordered by (xid, seq) and shows only events of
// transactions older than every transaction still running, which is an order no later commit can
// insert into. Existing rows all get this migration's transaction id and keep their `seq` order.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table events add column xid xid8 not null default pg_current_xact_id()`.execute(db);
  await sql`drop index events_account_seq`.execute(db);
  await sql`create index events_account_xid_seq on events(account_id, xid, seq)`.execute(db);
}
