import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table idempotency_keys (
      account_id integer not null references accounts(id),
      key text not null,
      request_hash text not null,
      state text not null check (state in ('in_progress', 'completed')),
      response_status integer,
      response_body text,
      created_at timestamptz not null default now(),
      locked_at timestamptz not null default now(),
      primary key (account_id, key)
    )`.execute(db);
  await sql`create index idempotency_keys_created on idempotency_keys(created_at)`.execute(db);
}
