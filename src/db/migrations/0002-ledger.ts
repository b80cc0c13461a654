import { sql, type Kysely } from 'kysely';

// Double-entry ledger. `balance` is credits minus debits of posted transfers, so the sum of all
// balances of one asset is zero. An account that may not go negative keeps
// balance - pending_debits >= 0, enforced here as well as by the ledger's conditional updates.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table ledger_accounts (
      id integer generated always as identity primary key,
      code text not null unique,
      owner_account_id integer references accounts(id),
      kind text not null,
      asset text not null,
      allow_negative boolean not null,
      balance bigint not null default 0,
      pending_debits bigint not null default 0,
      pending_credits bigint not null default 0,
      constraint pending_not_negative check (pending_debits >= 0 and pending_credits >= 0),
      constraint no_overdraft check (allow_negative or balance - pending_debits >= 0)
    )`.execute(db);
  await sql`create index ledger_accounts_owner on ledger_accounts(owner_account_id)`.execute(db);
  await sql`
    create table ledger_transfers (
      id bigint generated always as identity primary key,
      operation_id text not null,
      kind text not null check (kind in ('posted', 'pending', 'post_pending', 'void_pending')),
      debit_account_id integer not null references ledger_accounts(id),
      credit_account_id integer not null references ledger_accounts(id),
      asset text not null,
      amount bigint not null check (amount > 0),
      pending_transfer_id bigint references ledger_transfers(id),
      code text not null,
      created_at timestamptz not null default now(),
      check (debit_account_id <> credit_account_id),
      check ((kind in ('post_pending', 'void_pending')) = (pending_transfer_id is not null))
    )`.execute(db);
  // A pending transfer is resolved (posted or voided) exactly once.
  await sql`create unique index ledger_transfers_resolves_once on ledger_transfers(pending_transfer_id)
            where pending_transfer_id is not null`.execute(db);
  await sql`create index ledger_transfers_operation on ledger_transfers(operation_id)`.execute(db);
  await sql`create index ledger_transfers_debit on ledger_transfers(debit_account_id, id)`.execute(db);
  await sql`create index ledger_transfers_credit on ledger_transfers(credit_account_id, id)`.execute(db);
}
