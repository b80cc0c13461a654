import { sql, type Kysely } from 'kysely';

// The rows a transfer appends beside its ledger rows name accounts that the same request read
// committed (the sender by its key, the recipient by its look-up) and, for the sender, holds under
// a key-share lock to the commit. Their foreign keys re-checked each of those accounts once per
// row, with a trigger and a row lock of its own: four to six trigger calls per transfer on the
// hot path (decision 0048). An account is never deleted, which is what keeps such a reference
// true once written; this migration makes that a rule of the database (a trigger refuses DELETE
// and TRUNCATE of `accounts`, whoever asks) and drops the four foreign keys it makes redundant.
// The ledger's own keys (ledger_transfers to ledger_accounts) stay: ledger accounts are created and
// removed by transactions.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function accounts_never_deleted() returns trigger language plpgsql as $$
    begin
      raise exception 'accounts are never deleted: % refused', tg_op using errcode = 'restrict_violation';
    end
    $$`.execute(db);
  await sql`
    create trigger accounts_no_delete before delete on accounts
    for each row execute function accounts_never_deleted()`.execute(db);
  await sql`
    create trigger accounts_no_truncate before truncate on accounts
    for each statement execute function accounts_never_deleted()`.execute(db);
  await sql`alter table events drop constraint events_account_id_fkey`.execute(db);
  await sql`alter table stablecoin_transfers drop constraint stablecoin_transfers_sender_account_id_fkey`.execute(db);
  await sql`alter table stablecoin_transfers drop constraint stablecoin_transfers_recipient_account_id_fkey`.execute(db);
  await sql`alter table limit_volume drop constraint limit_volume_account_id_fkey`.execute(db);
}
