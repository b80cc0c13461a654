import { sql, type Kysely } from 'kysely';

// WALLET_PROVIDER=circle (DESIGN §19). One row: the Circle wallet set that holds peerpay's wallets
// and the treasury wallet (the hot wallet's role). `wallet_set_key` is drawn by whichever process
// inserts the row first, so every process of a fleet asks Circle for the set with the same
// idempotency key and they all get one set; `wallet_set_id` and the treasury are recorded once made
// (each move conditional on the column still being empty). The row is also what circle sends lock
// so that the treasury's sends are decided one at a time, as the hot wallet's nonce row does.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table circle_custody (
      id integer primary key check (id = 1),
      wallet_set_key uuid not null,
      wallet_set_id text,
      treasury_wallet_id text,
      treasury_address text check (treasury_address ~ '^0x[0-9a-fA-F]{40}$'),
      created_at timestamptz not null
    )`.execute(db);

  // Outbox entries that Circle sends (a transfer keyed by the entry's id, a UUID): recorded and
  // committed before Circle is asked, with what to ask, so that a crash or a lost answer is resolved
  // by asking again with the same key. They have no nonce, bytes or hash of peerpay's: the hash and
  // block are Circle's answer once COMPLETE. `status`: signed (recorded, Circle's answer not yet
  // seen), broadcast (Circle has it, `circle_transaction_id`), confirmed (COMPLETE) or reverted
  // (FAILED, CANCELLED, DENIED, or the transfer refused).
  await sql`alter table hot_wallet_outbox add column provider text not null default 'self' check (provider in ('self', 'circle'))`.execute(
    db,
  );
  await sql`alter table hot_wallet_outbox add column circle_wallet_id text`.execute(db);
  await sql`alter table hot_wallet_outbox add column circle_token text check (circle_token in ('USDC', 'EURC'))`.execute(db);
  await sql`alter table hot_wallet_outbox add column circle_destination text check (circle_destination ~ '^0x[0-9a-fA-F]{40}$')`.execute(
    db,
  );
  await sql`alter table hot_wallet_outbox add column circle_amount bigint check (circle_amount > 0)`.execute(db);
  await sql`alter table hot_wallet_outbox add column circle_transaction_id text unique`.execute(db);
  await sql`alter table hot_wallet_outbox add column circle_state text`.execute(db);
  await sql`alter table hot_wallet_outbox alter column nonce drop not null`.execute(db);
  await sql`alter table hot_wallet_outbox alter column tx_hash drop not null`.execute(db);
  await sql`alter table hot_wallet_outbox alter column raw_tx drop not null`.execute(db);
  await sql`alter table hot_wallet_outbox add constraint hot_wallet_outbox_provider_fields check (
      (provider = 'self' and nonce is not null and tx_hash is not null and raw_tx is not null)
      or (provider = 'circle' and nonce is null and raw_tx is null and circle_wallet_id is not null
          and circle_token is not null and circle_destination is not null and circle_amount is not null))`.execute(db);
}
