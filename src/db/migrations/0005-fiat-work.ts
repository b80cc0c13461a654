import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The client's Idempotency-Key as a natural key of the transfer: a retry after a crash finds the
  // transfer (and its processor charge) instead of charging again. NULLs are distinct, so transfers
  // sent without a key do not collide.
  await sql`alter table fiat_transfers add column idempotency_key text`.execute(db);
  await sql`create unique index fiat_transfers_idempotency on fiat_transfers(sender_account_id, idempotency_key)`.execute(db);
  // Jobs claim a row by setting a lease in a short transaction (FOR UPDATE SKIP LOCKED), then talk
  // to the processor with no transaction open; a worker that dies loses its lease.
  await sql`alter table fiat_transfers add column locked_until timestamptz`.execute(db);
  // The card, mandate or payout account a charge or payout was made with, fixed when it is recorded,
  // so that a repeat of the processor call (same idempotency key) is the very same call even if the
  // user has set up another instrument since.
  await sql`alter table fiat_transfers add column instrument_ref text`.execute(db);
  await sql`alter table payouts add column instrument_ref text`.execute(db);
  await sql`alter table payouts add column failure_code text`.execute(db);
  await sql`alter table payouts add column completed_at timestamptz`.execute(db);
  await sql`alter table payouts add column locked_until timestamptz`.execute(db);
  await sql`create index payouts_open on payouts(created_at) where status = 'pending'`.execute(db);
  await sql`create index fiat_transfers_processing on fiat_transfers(created_at) where status = 'processing'`.execute(db);
}
