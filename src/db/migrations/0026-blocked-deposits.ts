import { sql, type Kysely } from 'kysely';

// Deposits from a sanctioned sender (DESIGN §17, decision 0037): recorded like every deposit, but
// `blocked`, credited to nobody (the ledger holds them in platform:blocked_deposits:<token>) until
// an operator releases one (`released`: credited to the account then, once). Every deposit
// recorded before this migration was credited.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table chain_deposits
      add column status text not null default 'credited' check (status in ('credited', 'blocked', 'released')),
      add column released_at timestamptz,
      add constraint chain_deposits_released_at check ((status = 'released') = (released_at is not null))`.execute(db);
  // The operator's list of deposits waiting for a decision.
  await sql`create index chain_deposits_blocked on chain_deposits (credited_at) where status = 'blocked'`.execute(db);
}
