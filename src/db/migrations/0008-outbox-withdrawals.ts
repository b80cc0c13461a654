import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The next nonce of each address peerpay sends from (the hot wallet). One row per sender, locked
  // FOR UPDATE while a transaction is signed and recorded, so that two sends never share a nonce,
  // across processes too. Initialised from the chain's pending nonce at first use.
  await sql`
    create table chain_nonces (
      sender text primary key check (sender ~ '^0x[0-9a-fA-F]{40}$'),
      next_nonce bigint not null check (next_nonce >= 0)
    )`.execute(db);

  // Every transaction the hot wallet sends, recorded (hash, raw bytes, nonce) and committed before
  // it is broadcast, so that after a crash the very same transaction is sent again, never a second
  // one. One entry per (purpose, reference): a sweep of one deposit, one withdrawal.
  await sql`
    create table hot_wallet_outbox (
      id text primary key,
      purpose text not null check (purpose in ('sweep', 'withdrawal')),
      reference_id text not null,
      sender text not null,
      nonce bigint not null check (nonce >= 0),
      tx_hash text not null unique check (tx_hash ~ '^0x[0-9a-f]{64}$'),
      raw_tx text not null,
      status text not null check (status in ('signed', 'broadcast', 'confirmed', 'reverted')),
      block_number bigint,
      broadcast_attempts integer not null default 0,
      last_error text,
      created_at timestamptz not null,
      last_broadcast_at timestamptz,
      finished_at timestamptz,
      locked_until timestamptz,
      unique (purpose, reference_id),
      unique (sender, nonce)
    )`.execute(db);
  // The outbox job reads the unfinished entries, lowest nonce first.
  await sql`create index hot_wallet_outbox_open on hot_wallet_outbox(sender, nonce) where status in ('signed', 'broadcast')`.execute(db);

  // Withdrawals to external addresses. gross = fee + net; net is what the chain transfer sends.
  await sql`
    create table withdrawals (
      id text primary key,
      account_id integer not null references accounts(id),
      currency text not null check (currency in ('USDC', 'EURC')),
      address text not null check (address ~ '^0x[0-9a-fA-F]{40}$'),
      gross bigint not null check (gross > 0),
      fee bigint not null check (fee >= 0),
      net bigint not null check (net > 0),
      status text not null check (status in ('pending', 'complete', 'failed')),
      failure_code text,
      tx_hash text,
      idempotency_key text,
      created_at timestamptz not null,
      completed_at timestamptz,
      check (gross = fee + net)
    )`.execute(db);
  // The client's Idempotency-Key as natural key: a retry finds the withdrawal instead of sending again.
  await sql`create unique index withdrawals_idempotency on withdrawals(account_id, idempotency_key)`.execute(db);
  // History reads newest first by (created_at, id) with ids compared byte-wise, as its cursor does.
  await sql`create index withdrawals_account on withdrawals(account_id, created_at desc, id collate "C" desc)`.execute(db);
  await sql`create index withdrawals_pending on withdrawals(created_at) where status = 'pending'`.execute(db);
}
