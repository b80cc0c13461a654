import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Every paid call to a micro-endpoint: paid on chain with an x402 authorization (source 'chain')
  // or from the caller's ledger balance (source 'balance'). An authorization is claimed here,
  // by the unique (payer, authorization_nonce), BEFORE it is settled, so that two requests that
  // carry the same authorization can never both be served or both be relayed, across processes.
  await sql`
    create table x402_payments (
      id text primary key,
      source text not null check (source in ('chain', 'balance')),
      endpoint text not null,
      asset text not null check (asset = 'USDC'),
      amount bigint not null check (amount > 0),
      protocol_version smallint check (protocol_version in (1, 2)),
      payer text check (payer ~ '^0x[0-9a-f]{40}$'),
      authorization_nonce text check (authorization_nonce ~ '^0x[0-9a-f]{64}$'),
      valid_before bigint,
      pay_to text,
      account_id integer references accounts(id),
      status text not null check (status in ('settling', 'settled', 'failed')),
      tx_hash text check (tx_hash ~ '^0x[0-9a-f]{64}$'),
      failure_reason text,
      created_at timestamptz not null,
      settled_at timestamptz,
      unique (payer, authorization_nonce),
      check ((source = 'chain') = (payer is not null and authorization_nonce is not null and valid_before is not null and protocol_version is not null)),
      check ((source = 'balance') = (account_id is not null))
    )`.execute(db);
  // The reconciliation job reads the payments whose settlement outlived their request.
  await sql`create index x402_payments_settling on x402_payments(created_at) where status = 'settling'`.execute(db);
  await sql`create index x402_payments_account on x402_payments(account_id, created_at) where account_id is not null`.execute(db);

  // x402 settlements are relayed from the hot wallet through its outbox (migration 0008), which
  // names the purposes it knows in a check constraint: x402 joins sweeps and withdrawals.
  await sql`alter table hot_wallet_outbox drop constraint if exists hot_wallet_outbox_purpose_check`.execute(db);
  await sql`alter table hot_wallet_outbox add constraint hot_wallet_outbox_purpose_check
            check (purpose in ('sweep', 'withdrawal', 'x402'))`.execute(db);
}
