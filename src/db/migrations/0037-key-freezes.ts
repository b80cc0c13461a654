import { sql, type Kysely } from 'kysely';

// The key look-up of every authenticated request (src/accounts/account-lookups.ts) also gives the
// key's account's freeze (decision 0057): the row it joins is the one the freeze lives on, so a
// quote refuses a frozen sender (DESIGN §17) without a statement of its own. A new function beside
// peerpay_keys_and_accounts of migration 0017, with the same arms and the same kept generic plan,
// so that processes of the previous version, still running during a rolling restart, keep what
// they call. Key rows end with the four freeze columns; account rows have them null (a recipient's
// freeze is not the look-up's business).
const ACCOUNT_ARMS = (['handle', 'email', 'phone'] as const)
  .map(
    (column) => `union all
     select null::integer, null::text, a.id, a.handle, a.email, a.name, a.phone, a.website, a.discoverable,
            a.wallet_id, a.deposit_address, null::text, null::text, null::timestamptz, null::text
       from accounts a where a.${column} = any(${column}s)`,
  )
  .join('\n');

export async function up(db: Kysely<unknown>): Promise<void> {
  // Constant texts of this file only: nothing from outside is spliced in.
  await sql
    .raw(
      `
    create function peerpay_keys_freezes_and_accounts(hashes text[], handles text[], emails text[], phones text[])
    returns table ("keyId" integer, "keyHash" text, id integer, handle text, email text, name text, phone text,
                   website text, discoverable boolean, "walletId" text, "depositAddress" text,
                   "frozenScope" text, "frozenId" text, "frozenAt" timestamptz, "frozenBy" text)
    language plpgsql stable
    set plan_cache_mode = force_generic_plan
    as $$
    #variable_conflict use_column
    begin
      return query
      select k.id, k.key_hash, a.id, a.handle, null::text, null::text, null::text, null::text, null::boolean,
             null::text, null::text, a.frozen_scope, a.frozen_id, a.frozen_at, a.frozen_by
        from api_keys k join accounts a on a.id = k.account_id
       where k.key_hash = any(hashes) and k.revoked_at is null
      ${ACCOUNT_ARMS};
    end
    $$`,
    )
    .execute(db);
}
