import { sql, type Kysely } from 'kysely';

// Deposits with WALLET_PROVIDER=circle (DESIGN §19). Circle names every inbound transfer by its own
// transaction id, and a notification and the reconciliation poll can both bring the same one: the
// id, unique, makes the second recording do nothing (the row's (tx_hash, log_index), read from the
// chain, stays unique too). Null for deposits the chain-log watcher found.
//
// The poll's place in Circle's list of inbound transactions: one row. A pass reads
// GET /v1/w3s/transactions?txType=INBOUND&from=<from_time> page by page (`page_after`: the next
// page); `hold_at` is the earliest creation time of a transaction the pass saw still under way (or
// complete but not yet on peerpay's chain), `newest` the latest creation time it saw; at the end of
// the pass the next one starts from the earlier of the two, less an overlap. `leased_until` keeps
// a second process from running a round at the same time; every move is also a compare-and-set.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table chain_deposits add column circle_transaction_id text`.execute(db);
  await sql`create unique index chain_deposits_circle_transaction on chain_deposits(circle_transaction_id)`.execute(db);
  await sql`
    create table circle_inbound_cursor (
      name text primary key check (name = 'inbound'),
      from_time timestamptz not null,
      page_after text,
      hold_at timestamptz,
      newest timestamptz,
      leased_until timestamptz,
      updated_at timestamptz not null
    )`.execute(db);
}
