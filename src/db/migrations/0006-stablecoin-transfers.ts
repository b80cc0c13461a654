import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Internal stablecoin transfers between users: ledger-only movements, complete at once. The
  // amount is before fee; the recipient received amount - fee. The ledger holds the money; this
  // row is the record the history and the idempotency natural key are read from.
  await sql`
    create table stablecoin_transfers (
      id text primary key,
      sender_account_id integer not null references accounts(id),
      recipient_account_id integer not null references accounts(id),
      currency text not null check (currency in ('USDC', 'EURC')),
      amount bigint not null check (amount > 0),
      fee bigint not null check (fee >= 0 and fee < amount),
      status text not null check (status in ('complete')),
      idempotency_key text,
      created_at timestamptz not null,
      check (sender_account_id <> recipient_account_id)
    )`.execute(db);
  // The client's Idempotency-Key as the transfer's natural key: a retry whose stored answer was lost
  // finds the transfer instead of sending again. NULLs are distinct, so unkeyed transfers never collide.
  await sql`create unique index stablecoin_transfers_idempotency on stablecoin_transfers(sender_account_id, idempotency_key)`.execute(db);
  // History reads each side newest first by (created_at, id) with ids compared byte-wise ("C"), as
  // the cursor does; the indexes have the same order so that a page reads only its rows.
  await sql`create index stablecoin_transfers_sender on stablecoin_transfers(sender_account_id, created_at desc, id collate "C" desc)`.execute(
    db,
  );
  await sql`create index stablecoin_transfers_recipient on stablecoin_transfers(recipient_account_id, created_at desc, id collate "C" desc)`.execute(
    db,
  );
  // A user's default withdrawal address (DESIGN §6), kept checksummed. Its own table rather than a
  // column on accounts: withdrawals own its life (the first successful one sets it when unset).
  await sql`
    create table withdrawal_addresses (
      account_id integer primary key references accounts(id),
      address text not null check (address ~ '^0x[0-9a-fA-F]{40}$'),
      updated_at timestamptz not null
    )`.execute(db);
}
