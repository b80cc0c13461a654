import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Each ledger row's accounts were checked twice: by the single-column foreign keys of 0002 and by
  // the (account, asset) foreign keys of 0011, which also require the account to exist. Every check
  // is a trigger that looks the account up again for every row written, the larger part of the
  // batch's ledger statement. The (account, asset) keys stay and guarantee both.
  await sql`alter table ledger_transfers drop constraint ledger_transfers_debit_account_id_fkey`.execute(db);
  await sql`alter table ledger_transfers drop constraint ledger_transfers_credit_account_id_fkey`.execute(db);
}
