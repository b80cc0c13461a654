import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A processor that hosts its own setup pages (Stripe Checkout, Connect onboarding) confirms them
  // by webhook: the link records the processor's session (or connected account) so that the webhook
  // and the reconciliation job find it, and when to read it back if no webhook has come.
  await sql`alter table links add column processor_ref text`.execute(db);
  await sql`alter table links add column reconcile_at timestamptz`.execute(db);
  await sql`create index links_processor_ref on links(processor_ref) where processor_ref is not null`.execute(db);
  await sql`create index links_reconcile on links(reconcile_at) where reconcile_at is not null`.execute(db);
  // The user's payout account at the processor (a Connect account), made once; payout_ref is set
  // only when the processor says it can receive payouts.
  await sql`alter table processor_customers add column payout_account_ref text unique`.execute(db);
  // When to ask the processor about a pending bank debit if no webhook has told: settles_at stays
  // the date shown to the user, check_at is the job's due date.
  await sql`alter table fiat_transfers add column check_at timestamptz`.execute(db);
  await sql`update fiat_transfers set check_at = settles_at where status = 'pending'`.execute(db);
  await sql`create index fiat_transfers_check on fiat_transfers(check_at) where status = 'pending'`.execute(db);
  await sql`create index fiat_transfers_processor_ref on fiat_transfers(processor_ref) where processor_ref is not null`.execute(db);
  // Processor webhook events applied, by the processor's event id: each is applied once, in the
  // same transaction as its effect.
  await sql`
    create table processor_events (
      id text primary key,
      type text not null,
      received_at timestamptz not null
    )`.execute(db);
}
