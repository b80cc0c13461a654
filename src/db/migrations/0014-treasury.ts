import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A withdrawal the hot wallet cannot cover yet waits, pending and reserved, instead of failing:
  // waiting_since marks it for the withdrawal job (which sends it once the hot wallet holds the
  // tokens), wait_reported_at records that the operator was told it waits too long (once).
  await sql`alter table withdrawals add column waiting_since timestamptz`.execute(db);
  await sql`alter table withdrawals add column wait_reported_at timestamptz`.execute(db);
  await sql`create index withdrawals_waiting on withdrawals(created_at) where status = 'pending' and waiting_since is not null`.execute(db);

  // The hot wallet's excess above HOT_WALLET_MAX_<TOKEN>, sent to the operator's cold address through
  // the outbox (purpose 'cold', reference = this row's id). One open transfer per token at a time,
  // so a round that runs twice (or after a restart) never sends the excess twice.
  await sql`
    create table cold_transfers (
      id text primary key,
      token text not null check (token in ('USDC', 'EURC')),
      to_address text not null check (to_address ~ '^0x[0-9a-fA-F]{40}$'),
      amount bigint not null check (amount > 0),
      status text not null check (status in ('open', 'confirmed', 'failed')),
      tx_hash text,
      failure text,
      created_at timestamptz not null,
      finished_at timestamptz
    )`.execute(db);
  await sql`create unique index cold_transfers_one_open on cold_transfers(token) where status = 'open'`.execute(db);
  await sql`alter table hot_wallet_outbox drop constraint if exists hot_wallet_outbox_purpose_check`.execute(db);
  await sql`alter table hot_wallet_outbox add constraint hot_wallet_outbox_purpose_check
            check (purpose in ('sweep', 'withdrawal', 'x402', 'cold'))`.execute(db);

  // Transactions an outbox entry replaced (same nonce, higher fee) because they were stuck. The entry
  // keeps its current transaction; any of these may still be the one that is mined, so the outbox
  // looks at all of them, and whichever is mined is the entry's outcome (one nonce: at most one is).
  await sql`
    create table hot_wallet_outbox_replaced (
      tx_hash text primary key check (tx_hash ~ '^0x[0-9a-f]{64}$'),
      outbox_id text not null references hot_wallet_outbox(id),
      raw_tx text not null,
      replaced_at timestamptz not null
    )`.execute(db);
  await sql`create index hot_wallet_outbox_replaced_entry on hot_wallet_outbox_replaced(outbox_id)`.execute(db);
  // When the entry's current transaction was first broadcast: the wait before a replacement counts from it.
  await sql`alter table hot_wallet_outbox add column current_since timestamptz`.execute(db);
}
