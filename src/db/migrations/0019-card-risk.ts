import { sql, type Kysely } from 'kysely';

// Card money risk (DESIGN §16). The money itself is in the ledger (a user's `held` account, the
// per-user `receivable`, the platform's `losses`); these tables say why it moved, so that each
// processor object (refund, dispute, early fraud warning) is applied once and can be undone once.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Money received by card, held until `release_at`. `remaining` is what is still held of it: a
  // take-back shrinks it, the release job moves it to `available` once. The unreleased holds of an
  // account and currency add up to its `held` ledger account.
  await sql`
    create table fiat_holds (
      id text primary key,
      account_id integer not null references accounts(id),
      currency text not null,
      transfer_id text not null references fiat_transfers(id),
      amount bigint not null check (amount > 0),
      remaining bigint not null check (remaining >= 0 and remaining <= amount),
      release_at timestamptz not null,
      released_at timestamptz,
      created_at timestamptz not null
    )`.execute(db);
  await sql`create index fiat_holds_due on fiat_holds (release_at) where released_at is null`.execute(db);
  await sql`create index fiat_holds_account on fiat_holds (account_id, currency) where released_at is null`.execute(db);

  // Refunds of fiat transfers, made by an operator (origin operator) or found at the processor
  // (origin processor: the dashboard). `taken` is what the recipient gave back, `fee` what the
  // platform gave back of its fee; `undone_at` is set once when a failed refund is undone.
  await sql`
    create table refunds (
      id text primary key,
      transfer_id text not null references fiat_transfers(id),
      origin text not null check (origin in ('operator', 'processor')),
      processor_ref text unique,
      currency text not null,
      amount bigint not null check (amount >= 0),
      fee bigint not null check (fee >= 0 and amount + fee > 0),
      status text not null check (status in ('pending', 'succeeded', 'failed')),
      reason text not null,
      note text,
      idempotency_key text unique,
      request_hash text,
      undone_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`.execute(db);
  await sql`create index refunds_transfer on refunds (transfer_id)`.execute(db);

  // Disputes (chargebacks), one row per processor dispute whatever the order of its events.
  await sql`
    create table disputes (
      id text primary key,
      processor_ref text not null unique,
      transfer_id text not null references fiat_transfers(id),
      sender_account_id integer not null references accounts(id),
      recipient_account_id integer not null references accounts(id),
      currency text not null,
      amount bigint not null check (amount > 0),
      taken bigint not null check (taken >= 0),
      fee_taken bigint not null check (fee_taken >= 0),
      dispute_fee bigint not null check (dispute_fee >= 0),
      reason text not null,
      status text not null check (status in ('open', 'won', 'lost')),
      opened_at timestamptz not null,
      closed_at timestamptz
    )`.execute(db);
  await sql`create index disputes_open_sender on disputes (sender_account_id) where status = 'open'`.execute(db);

  // Every operator write, with its before and after, in the transaction of the change: the shape
  // of the audit log (DESIGN §17), which takes these rows over.
  await sql`
    create table operator_actions (
      id bigint generated always as identity primary key,
      at timestamptz not null,
      operator text not null,
      action text not null,
      target text not null,
      before jsonb,
      after jsonb,
      note text not null,
      request_id text
    )`.execute(db);

  // Payouts paused for an account (an early fraud warning); the account freeze (DESIGN §17) takes
  // these over. Lifted by setting lifted_at.
  await sql`
    create table payout_pauses (
      id bigint generated always as identity primary key,
      account_id integer not null references accounts(id),
      cause text not null,
      ref text not null unique,
      created_at timestamptz not null,
      lifted_at timestamptz
    )`.execute(db);
  await sql`create index payout_pauses_account on payout_pauses (account_id) where lifted_at is null`.execute(db);

  // Things an operator should look at (an early fraud warning), one per processor object.
  await sql`
    create table review_items (
      id text primary key,
      kind text not null,
      ref text not null unique,
      account_id integer not null references accounts(id),
      transfer_id text references fiat_transfers(id),
      status text not null check (status in ('open', 'closed')),
      created_at timestamptz not null
    )`.execute(db);

  // The sandbox processor's refunds and payout reversals, as its books would hold them.
  await sql`
    create table sandbox_refunds (
      ref text primary key,
      idempotency_key text unique,
      charge_ref text not null references sandbox_charges(ref),
      currency text not null,
      amount bigint not null check (amount > 0),
      status text not null check (status in ('pending', 'succeeded', 'failed')),
      refund_id text,
      created_at timestamptz not null
    )`.execute(db);
  await sql`
    create table sandbox_payout_reversals (
      ref text primary key,
      idempotency_key text not null unique,
      payout_ref text not null references sandbox_charges(ref),
      amount bigint not null check (amount > 0),
      created_at timestamptz not null
    )`.execute(db);
}
