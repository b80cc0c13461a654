import { sql, type Kysely } from 'kysely';

// Guards the books in the schema itself (issue 11), so that no code path, script or hand-written SQL
// can record what the ledger's code would refuse:
// - only the assets peerpay knows (money/assets.ts) on accounts and transfers;
// - a transfer's asset is both of its accounts' asset: a composite foreign key (account id, asset)
//   from each side to ledger_accounts, which needs (id, asset) to be unique there;
// - transfers are immutable: a trigger refuses UPDATE and DELETE (a pending transfer is resolved by
//   another transfer, never edited);
// - only platform accounts may go negative (they mirror money held outside the books).
// And two small tables for the checks against the world outside the database:
// - custody_checks: the last comparison, per token, of what the books say peerpay holds on chain
//   with what the chain holds (books/custody-check.ts), read by every process's readiness check;
// - installation_identity: which master seed and which chain this database belongs to
//   (startup/installation-identity.ts), checked at every start before anything is written; the
//   chain by its id and the hash of its block 1 (anvil remakes block 0 whenever it loads its state).
export async function up(db: Kysely<unknown>): Promise<void> {
  const assets = sql`('USD', 'EUR', 'GBP', 'JPY', 'USDC', 'EURC')`;
  await sql`alter table ledger_accounts add constraint ledger_accounts_known_asset check (asset in ${assets})`.execute(db);
  await sql`alter table ledger_transfers add constraint ledger_transfers_known_asset check (asset in ${assets})`.execute(db);
  await sql`alter table ledger_accounts add constraint ledger_accounts_id_asset unique (id, asset)`.execute(db);
  await sql`alter table ledger_transfers add constraint ledger_transfers_debit_asset
            foreign key (debit_account_id, asset) references ledger_accounts (id, asset)`.execute(db);
  await sql`alter table ledger_transfers add constraint ledger_transfers_credit_asset
            foreign key (credit_account_id, asset) references ledger_accounts (id, asset)`.execute(db);
  await sql`alter table ledger_accounts add constraint ledger_accounts_negative_only_platform
            check (not allow_negative or (owner_account_id is null and code like 'platform:%'))`.execute(db);
  await sql`
    create function ledger_transfers_immutable() returns trigger language plpgsql as $$
    begin
      raise exception 'ledger transfers are immutable: % refused', tg_op using errcode = 'restrict_violation';
    end
    $$`.execute(db);
  await sql`create trigger ledger_transfers_immutable before update or delete on ledger_transfers
            for each row execute function ledger_transfers_immutable()`.execute(db);

  await sql`
    create table custody_checks (
      token text primary key check (token in ('USDC', 'EURC')),
      books_minor numeric(78, 0) not null,
      chain_minor numeric(78, 0) not null,
      block_number bigint not null,
      ok boolean not null,
      checked_at timestamptz not null
    )`.execute(db);
  await sql`
    create table installation_identity (
      id smallint primary key check (id = 1),
      seed_fingerprint text not null check (seed_fingerprint ~ '^[0-9a-f]{64}$'),
      chain_id integer not null,
      chain_block1_hash text not null check (chain_block1_hash ~ '^0x[0-9a-f]{64}$'),
      recorded_at timestamptz not null
    )`.execute(db);
}
