import { sql, type Kysely } from 'kysely';

// An Idempotency-Key record names the account of the request that wrote it: the caller its API key
// authenticated, read committed by that same request (and, for a transfer's key written in its
// batch, held under the batch's key-share lock on the sender's row). Accounts are never deleted
// (migration 0034 makes that a rule of the database), so the reference stays true once written,
// and the foreign key only re-checked it: a trigger call and a key-share row lock on the account
// for every keyed request, about 4 µs of PostgreSQL's CPU per record (decision 0072). The
// invariant check looks for a record naming a missing account, as for the tables of 0034.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table idempotency_keys drop constraint idempotency_keys_account_id_fkey`.execute(db);
}
