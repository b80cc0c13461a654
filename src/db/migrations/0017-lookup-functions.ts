import { sql, type Kysely } from 'kysely';

// The two look-ups every authenticated request makes (src/accounts/account-lookups.ts), as
// functions whose plans are kept for the session. Sent as plain statements, each was parsed,
// analysed and planned again every time: planning took longer than running (about 0.2 of 0.45 ms
// per statement at 10,000 accounts). Inside a PL/pgSQL function the statement is prepared once per
// connection, and `plan_cache_mode = force_generic_plan` (set for the function's own statements
// only) keeps one plan for every batch size, where the default would plan each call anew: the
// arrays' lengths make each call's custom plan look cheaper than the shared one. The generic plan
// is the one wanted anyway: unique-index look-ups, whatever the number of keys. Each kind of key
// has its own arm, with no OR between columns: a generic plan for an OR of three arrays may scan
// the whole table when statistics are missing (a fresh database), and so did one of the ids the
// three arrays name (a hash join); an arm per array never does.
//
// Changing either look-up means a new migration that replaces the function (`create or replace`),
// keeping its columns, or a new function beside it, so that processes of the previous version,
// still running during a rolling restart, keep what they call.

/** A set-returning function over one statement that keeps one generic plan per connection. */
function keptPlanFunction(signature: string, columns: string, query: string) {
  // Constant texts of this file only: nothing from outside is spliced in.
  return sql.raw(`
    create function ${signature}
    returns table (${columns})
    language plpgsql stable
    set plan_cache_mode = force_generic_plan
    as $$
    #variable_conflict use_column
    begin
      return query ${query};
    end
    $$`);
}

// One arm per kind of account key, each on its own unique index (an account named two ways comes
// back twice; the caller maps each row by the key it asked with).
const ACCOUNT_ARMS = (['handle', 'email', 'phone'] as const)
  .map(
    (column) => `union all
     select null::integer, null::text, a.id, a.handle, a.email, a.name, a.phone, a.website, a.discoverable,
            a.wallet_id, a.deposit_address
       from accounts a where a.${column} = any(${column}s)`,
  )
  .join('\n');

export async function up(db: Kysely<unknown>): Promise<void> {
  // Key rows carry "keyHash" (never null) and the key's account's id and handle; account rows have
  // a null "keyHash" and the account's columns.
  await keptPlanFunction(
    'peerpay_keys_and_accounts(hashes text[], handles text[], emails text[], phones text[])',
    `"keyId" integer, "keyHash" text, id integer, handle text, email text, name text, phone text, website text,
     discoverable boolean, "walletId" text, "depositAddress" text`,
    `select k.id, k.key_hash, a.id, a.handle, null::text, null::text, null::text, null::text, null::boolean,
            null::text, null::text
       from api_keys k join accounts a on a.id = k.account_id
      where k.key_hash = any(hashes) and k.revoked_at is null
     ${ACCOUNT_ARMS}`,
  ).execute(db);
  // One row per (key, available ledger account), or one with null balance columns for an account
  // that holds nothing.
  await keptPlanFunction(
    'peerpay_keys_with_balances(hashes text[])',
    `"keyId" integer, "keyHash" text, "accountId" integer, handle text, asset text, balance bigint,
     "pendingDebits" bigint, "pendingCredits" bigint`,
    `select k.id, k.key_hash, a.id, a.handle, l.asset, l.balance, l.pending_debits, l.pending_credits
       from api_keys k join accounts a on a.id = k.account_id
            left join ledger_accounts l on l.owner_account_id = a.id and l.kind = 'available'
      where k.key_hash = any(hashes) and k.revoked_at is null
      order by l.asset`,
  ).execute(db);
}
