import { sql, type Kysely } from 'kysely';

// Per-account limits on outgoing volume (DESIGN §17, decision 0036). limit_volume holds the volume
// in time buckets per account and currency or token (the currency names the rail): hourly ones
// for the 24-hour window, daily ones for the 30-day window, so that a limit check reads at most
// 25 + 31 small rows, never a day of transfers. account_limit_overrides holds what an operator set
// for one account; who and why is in the audit log.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table limit_volume (
      account_id integer not null references accounts (id),
      currency text not null,
      span text not null check (span in ('hour', 'day')),
      starts_at timestamptz not null,
      volume bigint not null check (volume >= 0),
      primary key (account_id, currency, span, starts_at)
    )`.execute(db);
  // Old buckets are removed by their start, whoever they belong to.
  await sql`create index limit_volume_starts_at on limit_volume (starts_at)`.execute(db);
  await sql`
    create table account_limit_overrides (
      account_id integer not null references accounts (id),
      currency text not null,
      day_limit bigint check (day_limit >= 0),
      month_limit bigint check (month_limit >= 0),
      updated_at timestamptz not null,
      primary key (account_id, currency),
      check (day_limit is not null or month_limit is not null)
    )`.execute(db);
}
