import { sql, type Kysely } from 'kysely';

// The operator console's credentials and sessions (DESIGN §18, decision 0043). An operator enrolled
// for the console has a password (scrypt, as account passwords) and a TOTP secret, kept encrypted
// with a key derived from the master seed (never in plain). `totp_pending` is the secret shown on
// the enrolment page until a first code confirms it. `totp_last_step` is the last 30-second step a
// code was accepted for: a code is good once. Failed sign-ins are counted here so that every
// process refuses a locked operator alike. Sessions are kept server-side by the SHA-256 of their
// token, so that signing out or disabling an operator ends them everywhere at once.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table operators
      add column password_hash text,
      add column totp_secret text,
      add column totp_pending text,
      add column totp_last_step bigint,
      add column failed_sign_ins integer not null default 0 check (failed_sign_ins >= 0),
      add column locked_until timestamptz`.execute(db);
  await sql`
    create table console_sessions (
      token_hash text primary key,
      operator_id text not null references operators(id),
      created_at timestamptz not null,
      last_seen_at timestamptz not null,
      ended_at timestamptz
    )`.execute(db);
  await sql`create index console_sessions_operator on console_sessions (operator_id) where ended_at is null`.execute(db);
}
