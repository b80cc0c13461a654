import { sql, type Kysely } from 'kysely';

// The operator console's charts (DESIGN §18): every 5 minutes one process records a take, one row
// per metric and asset: the hot wallet's balance per token, the transfer volume of the 5 minutes
// just ended per rail and asset (fiat per currency, stablecoin per token), and the webhook delivery
// attempts that failed in them. The slot is the primary key, so two processes racing for one take
// write it once. Minor units of `asset` as bigint, like the ledger; a count for webhook failures.
// The volume reads use the transfers' created_at indexes (migration 0030); the failures read, this
// partial index of failed webhook attempts by time.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table snapshots (
      taken_at timestamptz not null,
      metric text not null check (metric in ('hot_wallet', 'transfer_volume', 'webhook_failures')),
      rail text not null check (rail in ('chain', 'fiat', 'stablecoin', 'webhooks')),
      asset text not null,
      value bigint not null check (value >= 0),
      primary key (taken_at, metric, rail, asset)
    )`.execute(db);
  await sql`create index webhook_attempts_attempted on webhook_attempts(attempted_at) where not succeeded`.execute(db);
}
