import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table accounts (
      id integer generated always as identity primary key,
      handle text not null unique,
      email text not null unique,
      name text not null,
      password_hash text not null,
      phone text unique,
      website text,
      discoverable boolean not null default false,
      wallet_id text unique,
      deposit_address text unique,
      failed_logins integer not null default 0,
      failed_logins_since timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table api_keys (
      id integer generated always as identity primary key,
      account_id integer not null references accounts(id),
      key_hash text not null unique,
      last4 text not null,
      created_at timestamptz not null default now(),
      revoked_at timestamptz
    )`.execute(db);
  await sql`create index api_keys_account on api_keys(account_id)`.execute(db);
}
