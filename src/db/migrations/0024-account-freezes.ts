import { sql, type Kysely } from 'kysely';

// Account freezes (DESIGN §17): the current freeze of an account lives on its `accounts` row, so
// that the lock every outgoing movement already takes on that row (or a key-share lock beside it)
// orders the movement against the freeze (decision 0035). The freeze's history is the audit log's
// (account.freeze / account.unfreeze entries), not kept here. `frozen_id` names the current freeze:
// the subject of its account.frozen and account.unfrozen events.
//
// The operator's account search (GET /admin/accounts?q=) matches e-mails, handles and deposit
// addresses by prefix: indexes in the byte order LIKE 'prefix%' can use whatever the database's
// collation (the unique indexes follow the collation, which a prefix match cannot use unless it is C).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table accounts
      add column frozen_scope text check (frozen_scope in ('all', 'payouts')),
      add column frozen_id text,
      add column frozen_at timestamptz,
      add column frozen_by text,
      add constraint accounts_freeze_whole check (
        (frozen_scope is null and frozen_id is null and frozen_at is null and frozen_by is null) or
        (frozen_scope is not null and frozen_id is not null and frozen_at is not null and frozen_by is not null))`.execute(db);
  await sql`create index accounts_email_prefix on accounts (email text_pattern_ops)`.execute(db);
  await sql`create index accounts_handle_prefix on accounts (handle text_pattern_ops)`.execute(db);
  await sql`create index accounts_deposit_address_prefix on accounts (lower(deposit_address) text_pattern_ops)`.execute(db);
}
