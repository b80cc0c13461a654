import { sql, type Kysely } from 'kysely';

// Payout reversals by an operator (DESIGN §16): money taken back from a user's payout account,
// once per reversal (its id is the processor's idempotency key).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table payout_reversals (
      id text primary key,
      payout_id text not null references payouts(id),
      account_id integer not null references accounts(id),
      currency text not null,
      amount bigint not null check (amount > 0),
      processor_ref text not null,
      note text not null,
      request_hash text not null,
      created_at timestamptz not null
    )`.execute(db);
  await sql`create index payout_reversals_payout on payout_reversals (payout_id)`.execute(db);
}
