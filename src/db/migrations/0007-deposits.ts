import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Sweeps move a deposit address's whole token balance to the hot wallet by an EIP-3009
  // authorization that the hot wallet relays (through the outbox, whose reference is the sweep id).
  // The balance was read at block `covers_through_block` (the head before and after the read was
  // that block), so once the sweep is confirmed every deposit to the address up to that block has
  // left it. The authorization (its nonce and validity window) is fixed when the sweep is created,
  // so that signing it again after a crash yields the very same authorization.
  await sql`
    create table chain_sweeps (
      id text primary key,
      account_id integer not null references accounts(id),
      address text not null check (address ~ '^0x[0-9a-fA-F]{40}$'),
      token text not null check (token in ('USDC', 'EURC')),
      amount bigint not null check (amount > 0),
      covers_through_block bigint not null check (covers_through_block >= 0),
      auth_nonce text not null unique check (auth_nonce ~ '^0x[0-9a-f]{64}$'),
      valid_before bigint not null,
      status text not null check (status in ('open', 'confirmed', 'reverted', 'failed')),
      tx_hash text,
      failure text,
      created_at timestamptz not null,
      finished_at timestamptz
    )`.execute(db);
  // One sweep in flight per (address, token): a second one would read a balance that the first is
  // about to move, and its transfer would revert.
  await sql`create unique index chain_sweeps_one_open on chain_sweeps(address, token) where status = 'open'`.execute(db);
  await sql`create index chain_sweeps_covering on chain_sweeps(account_id, token, covers_through_block) where status = 'confirmed'`.execute(
    db,
  );

  // Token transfers to users' deposit addresses, each credited once: (tx_hash, log_index) names one
  // log for ever, and the unique index makes a second insert of it do nothing, whatever the
  // concurrency. The row and its ledger credit commit in one transaction.
  await sql`
    create table chain_deposits (
      id text primary key,
      account_id integer not null references accounts(id),
      token text not null check (token in ('USDC', 'EURC')),
      amount bigint not null check (amount > 0),
      tx_hash text not null check (tx_hash ~ '^0x[0-9a-f]{64}$'),
      log_index integer not null check (log_index >= 0),
      block_number bigint not null check (block_number >= 0),
      block_hash text not null check (block_hash ~ '^0x[0-9a-f]{64}$'),
      from_address text not null check (from_address ~ '^0x[0-9a-fA-F]{40}$'),
      to_address text not null check (to_address ~ '^0x[0-9a-fA-F]{40}$'),
      credited_at timestamptz not null,
      sweep_id text references chain_sweeps(id),
      swept_at timestamptz,
      check ((sweep_id is null) = (swept_at is null))
    )`.execute(db);
  await sql`create unique index chain_deposits_log on chain_deposits(tx_hash, log_index)`.execute(db);
  // The sweep job looks for credited deposits not yet swept, per address and token.
  await sql`create index chain_deposits_unswept on chain_deposits(account_id, token, block_number) where swept_at is null`.execute(db);
  // History reads a user's deposits newest first by (credited_at, id), ids compared byte-wise as the
  // history cursor does.
  await sql`create index chain_deposits_account on chain_deposits(account_id, credited_at desc, id collate "C" desc)`.execute(db);

  // Where the deposit watcher is on the chain. `next_block` is the first block not yet fully read;
  // `anchor_hash` the hash that block next_block - 1 had when it was read, compared with the chain's
  // before every new range so that a reorganisation deeper than the confirmation window is noticed.
  // A range is read page by page of accounts (`accounts_after`: pages up to this account id are
  // done) between next_block and `range_to`, whose hash was `range_to_hash` when the range began.
  await sql`
    create table chain_scan_cursors (
      name text primary key,
      next_block bigint not null check (next_block >= 0),
      anchor_hash text,
      range_to bigint,
      range_to_hash text,
      accounts_after integer not null default 0,
      updated_at timestamptz not null,
      check ((range_to is null) = (range_to_hash is null)),
      check (range_to is null or range_to >= next_block)
    )`.execute(db);
}
