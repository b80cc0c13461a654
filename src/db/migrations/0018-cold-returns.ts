import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Token transfers from a cold address back to one of peerpay's own addresses (the hot wallet, a
  // deposit address), found by the custody check's scan of the cold addresses' Transfer logs
  // (decision 0025). Each such transfer is custody peerpay got back: the check no longer counts it
  // at the cold address, whatever the operator puts there later. Only confirmed blocks are stored;
  // the scan's place is the 'cold-returns' row of chain_scan_cursors. Amounts are whole token base
  // units as the chain has them (uint256), so numeric.
  await sql`
    create table cold_returns (
      tx_hash text not null check (tx_hash ~ '^0x[0-9a-f]{64}$'),
      log_index integer not null check (log_index >= 0),
      token text not null check (token in ('USDC', 'EURC')),
      from_address text not null check (from_address ~ '^0x[0-9a-fA-F]{40}$'),
      to_address text not null check (to_address ~ '^0x[0-9a-fA-F]{40}$'),
      amount numeric(78, 0) not null check (amount > 0),
      block_number bigint not null check (block_number >= 0),
      found_at timestamptz not null,
      primary key (tx_hash, log_index)
    )`.execute(db);
}
