import { sql, type Kysely } from 'kysely';

// Operator identities (DESIGN §17): each with a role and its own API token (`po_…`, only its
// SHA-256 kept), and a one-time console enrolment link (its SHA-256 and expiry; the console
// consumes it and adds the sign-in columns it needs). A disabled operator is kept, so that its name
// stays taken and the audit log's entries keep naming one operator.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table operators (
      id text primary key,
      name text not null check (name ~ '^[A-Za-z0-9._-]{1,64}$' and lower(name) not in ('env', 'system')),
      role text not null check (role in ('viewer', 'support', 'admin')),
      token_hash text not null,
      created_at timestamptz not null,
      created_by text not null,
      disabled_at timestamptz,
      enrolment_token_hash text,
      enrolment_expires_at timestamptz,
      enrolled_at timestamptz
    )`.execute(db);
  // Names are unique whatever their case, disabled operators' included.
  await sql`create unique index operators_name on operators (lower(name))`.execute(db);
  // The one read of every operator request. Only enabled operators' tokens are in it: a disabled
  // operator's token is looked up exactly as an unknown one is.
  await sql`create unique index operators_active_token on operators (token_hash) where disabled_at is null`.execute(db);
  await sql`create unique index operators_enrolment_token on operators (enrolment_token_hash) where enrolment_token_hash is not null`.execute(
    db,
  );
}
