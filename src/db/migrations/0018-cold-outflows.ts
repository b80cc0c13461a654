import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Every token transfer sent by a cold address, found by the custody check's scan of the cold
  // addresses' Transfer logs (decision 0025). What went back to one of peerpay's addresses (the hot
  // wallet, a deposit address) is custody peerpay got back, and what went to another cold address
  // moved with it: the check counts each cold address accordingly, whatever the operator puts
  // there later. Only confirmed blocks are stored; the scan's place is the 'cold-outflows' row of
  // chain_scan_cursors. Amounts are token base units as the chain has them (uint256), so numeric.
  await sql`
    create table cold_outflows (
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
