import { sql, type Kysely } from 'kysely';

// Since when a token's custody check has been failing (books/custody-check.ts keeps it while the
// checks keep finding a shortfall, and clears it at the first check that does not), so that the
// public readiness answer can say since when without saying by how much. A row already failing
// starts at its last check: the earliest time known.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table custody_checks add column failing_since timestamptz`.execute(db);
  await sql`update custody_checks set failing_since = checked_at where not ok`.execute(db);
}
