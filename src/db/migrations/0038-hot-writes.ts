import { sql, type Kysely } from 'kysely';

// Fewer index entries for each internal transfer (decision 0059, issue 30).
// - `events_created_at` goes: only the retention job read it, and it now pages through the oldest
//   events by `seq` (the primary key), which follows creation closely enough for a 30-day rule.
//   Each transfer wrote two entries into it.
// - limit_volume's bucket rows are updated in place by every transfer of their sender (its hour
//   and day buckets). With full pages an update that finds no room beside its row moves it and
//   adds an entry to both of the table's indexes. Half-full pages keep the new version beside the
//   old one (a HOT update, no index entry), as idempotency_keys' do (0016). Only pages written
//   from now on are affected.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index events_created_at`.execute(db);
  await sql`alter table limit_volume set (fillfactor = 50)`.execute(db);
}
