import { sql, type Kysely } from 'kysely';

// Events and signed webhooks (DESIGN §13, src/events/). An event is written in the same transaction
// as the change it describes (a transactional outbox), with one delivery row per matching webhook
// endpoint: the delivery job works from those rows, so an event is created exactly once and
// delivered at least once, whatever process dies when.
export async function up(db: Kysely<unknown>): Promise<void> {
  // `seq` orders an account's events (the cursor of GET /events); `id` is the public evt_ id.
  // (account_id, type, subject_id) is unique: a change recorded twice (a replay, a webhook racing a
  // job) cannot describe itself twice.
  await sql`
    create table events (
      seq bigserial primary key,
      id text not null unique,
      account_id integer not null references accounts(id),
      type text not null,
      subject_id text not null,
      data jsonb not null,
      created_at timestamptz not null,
      unique (account_id, type, subject_id)
    )`.execute(db);
  await sql`create index events_account_seq on events(account_id, seq)`.execute(db);
  await sql`create index events_created_at on events(created_at)`.execute(db);

  // The signing secret is not stored: it is derived from the master seed and `secret_salt`
  // (decision 0017). `events` null means every type.
  await sql`
    create table webhook_endpoints (
      id text primary key,
      account_id integer not null references accounts(id),
      url text not null,
      events jsonb,
      secret_salt text not null,
      status text not null check (status in ('enabled', 'disabled', 'deleted')),
      failing_since timestamptz,
      created_at timestamptz not null
    )`.execute(db);
  await sql`create index webhook_endpoints_account on webhook_endpoints(account_id) where status <> 'deleted'`.execute(db);

  await sql`
    create table webhook_deliveries (
      id bigserial primary key,
      endpoint_id text not null references webhook_endpoints(id),
      event_seq bigint not null references events(seq) on delete cascade,
      status text not null check (status in ('pending', 'delivered', 'failed', 'cancelled')),
      attempts integer not null default 0,
      next_attempt_at timestamptz not null,
      locked_until timestamptz,
      created_at timestamptz not null,
      finished_at timestamptz,
      unique (endpoint_id, event_seq)
    )`.execute(db);
  await sql`create index webhook_deliveries_due on webhook_deliveries(next_attempt_at) where status = 'pending'`.execute(db);
  await sql`create index webhook_deliveries_event on webhook_deliveries(event_seq)`.execute(db);

  await sql`
    create table webhook_attempts (
      id bigserial primary key,
      delivery_id bigint not null references webhook_deliveries(id) on delete cascade,
      endpoint_id text not null,
      attempt integer not null,
      attempted_at timestamptz not null,
      status_code integer,
      error text,
      duration_ms integer not null,
      succeeded boolean not null
    )`.execute(db);
  await sql`create index webhook_attempts_endpoint on webhook_attempts(endpoint_id, id)`.execute(db);
  await sql`create index webhook_attempts_delivery on webhook_attempts(delivery_id)`.execute(db);
}
