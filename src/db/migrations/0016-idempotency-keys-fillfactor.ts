import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A claim is inserted small (in progress) and updated moments later with its answer, which makes
  // the row several times larger. With full pages the grown row had to move to another page, and
  // both of the table's indexes got a new entry for it (two in three answers). Half-full pages
  // leave room for the answer beside its claim: the update stays on the page (a HOT update) and
  // touches no index. Only pages written from now on are affected.
  await sql`alter table idempotency_keys set (fillfactor = 50)`.execute(db);
}
