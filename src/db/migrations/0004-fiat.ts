import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Links handed out to users (card setup, payout setup, bank debit setup, funding). Only a hash of
  // the token is stored.
  await sql`
    create table links (
      id integer generated always as identity primary key,
      token_hash text not null unique,
      account_id integer not null references accounts(id),
      purpose text not null,
      payload text,
      expires_at timestamptz not null,
      used_at timestamptz,
      outcome text,
      created_at timestamptz not null default now()
    )`.execute(db);
  // peerpay's side of the processor relationship: references only, never card or bank numbers.
  await sql`
    create table processor_customers (
      account_id integer primary key references accounts(id),
      customer_ref text not null unique,
      card_ref text,
      bank_debit_ref text,
      payout_ref text
    )`.execute(db);
  // The sandbox processor's own books: what the simulated card network and bank know.
  await sql`
    create table sandbox_instruments (
      ref text primary key,
      customer_ref text not null,
      kind text not null check (kind in ('card', 'bank_debit', 'payout')),
      behaviour text not null check (behaviour in ('succeed', 'decline', 'return')),
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table sandbox_charges (
      ref text primary key,
      idempotency_key text not null unique,
      instrument_ref text not null references sandbox_instruments(ref),
      kind text not null check (kind in ('card_charge', 'bank_debit', 'payout')),
      currency text not null,
      amount bigint not null check (amount > 0),
      status text not null check (status in ('succeeded', 'declined', 'pending', 'returned')),
      settles_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table fiat_transfers (
      id text primary key,
      sender_account_id integer not null references accounts(id),
      recipient_account_id integer not null references accounts(id),
      currency text not null,
      amount bigint not null check (amount > 0),
      fee bigint not null check (fee >= 0),
      payment_method text not null check (payment_method in ('instant', 'ach')),
      status text not null check (status in ('processing', 'pending', 'completed', 'failed')),
      note text,
      processor_ref text,
      failure_code text,
      created_at timestamptz not null,
      settles_at timestamptz,
      completed_at timestamptz
    )`.execute(db);
  await sql`create index fiat_transfers_sender on fiat_transfers(sender_account_id, created_at desc, id desc)`.execute(db);
  await sql`create index fiat_transfers_recipient on fiat_transfers(recipient_account_id, created_at desc, id desc)`.execute(db);
  await sql`create index fiat_transfers_open on fiat_transfers(status, settles_at) where status in ('processing', 'pending')`.execute(db);
  await sql`
    create table payouts (
      id text primary key,
      account_id integer not null references accounts(id),
      currency text not null,
      amount bigint not null check (amount > 0),
      status text not null check (status in ('pending', 'paid', 'failed')),
      processor_ref text,
      created_at timestamptz not null
    )`.execute(db);
  await sql`create index payouts_account on payouts(account_id, created_at desc)`.execute(db);
  await sql`create table sandbox_clock (id integer primary key check (id = 1), offset_ms bigint not null)`.execute(db);
  await sql`insert into sandbox_clock (id, offset_ms) values (1, 0)`.execute(db);
}
