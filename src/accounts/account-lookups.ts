// The look-ups every authenticated request makes (its API key, with or without the account's
// balances) and that every transfer and quote makes (its recipient), coalesced: the calls made in
// one turn of the event loop share one statement (src/platform/coalesce.ts). Nothing is cached, so
// a key revoked before a request is refused by that request, in every process.
//
// The statements are prebuilt SQL texts with one array parameter per kind of key: the same text for
// every batch size (one plan for PostgreSQL to keep), and no query builder to run per call.
import { CompiledQuery } from 'kysely';
import type { Db } from '../db/database.js';
import type { OwnerBalance } from '../ledger/ledger-queries.js';
import type { Asset } from '../money/assets.js';
import { coalesce, LOADS_IN_FLIGHT, type Coalesced } from '../platform/coalesce.js';
import type { AccountRow } from './accounts-repository.js';

/** An active (never revoked) API key and its account. */
export interface ActiveKey {
  keyId: number;
  keyHash: string;
  accountId: number;
  handle: string;
}

export interface ActiveKeyWithBalances extends ActiveKey {
  /** The account's `available` ledger accounts, by asset; none for an asset never held. */
  balances: OwnerBalance[];
}

/** An account named by its handle (upper case), its normalised e-mail or its E.164 phone. */
export type AccountKey = { handle: string } | { email: string } | { phone: string };

export interface AccountLookups {
  activeKey: Coalesced<string, ActiveKey | undefined>;
  activeKeyWithBalances: Coalesced<string, ActiveKeyWithBalances | undefined>;
  account: Coalesced<AccountKey, AccountRow | undefined>;
}

// Enough to cover one turn under heavy load in one statement, small enough that its arrays stay cheap.
const MAX_BATCH = 256;

const ACTIVE_KEYS = `
  select k.id as "keyId", k.key_hash as "keyHash", a.id as "accountId", a.handle
    from api_keys k join accounts a on a.id = k.account_id
   where k.key_hash = any($1::text[]) and k.revoked_at is null`;

// One row per (key, available ledger account), or one with null balance columns for an account
// that holds nothing: plain columns, so no JSON to build in the database nor to parse here.
const ACTIVE_KEYS_WITH_BALANCES = `
  select k.id as "keyId", k.key_hash as "keyHash", a.id as "accountId", a.handle,
         l.asset, l.balance, l.pending_debits as "pendingDebits", l.pending_credits as "pendingCredits"
    from api_keys k join accounts a on a.id = k.account_id
         left join ledger_accounts l on l.owner_account_id = a.id and l.kind = 'available'
   where k.key_hash = any($1::text[]) and k.revoked_at is null
   order by l.asset`;

const ACCOUNTS = `
  select id, handle, email, name, phone, website, discoverable, wallet_id as "walletId", deposit_address as "depositAddress"
    from accounts
   where handle = any($1::text[]) or email = any($2::text[]) or phone = any($3::text[])`;

interface BalanceRow extends ActiveKey {
  asset: string | null;
  balance: bigint | null;
  pendingDebits: bigint | null;
  pendingCredits: bigint | null;
}

async function rowsOf<R>(db: Db, text: string, parameters: unknown[]): Promise<R[]> {
  const result = await db.executeQuery<R>(CompiledQuery.raw(text, parameters));
  return result.rows;
}

/** The active keys with these hashes, in the order asked (undefined for none): one statement. */
export async function findActiveKeys(db: Db, hashes: readonly string[]): Promise<(ActiveKey | undefined)[]> {
  const rows = await rowsOf<ActiveKey>(db, ACTIVE_KEYS, [[...new Set(hashes)]]);
  const byHash = new Map(rows.map((row) => [row.keyHash, row]));
  return hashes.map((hash) => byHash.get(hash));
}

/** findActiveKeys, each with its account's balances: one statement. */
export async function findActiveKeysWithBalances(db: Db, hashes: readonly string[]): Promise<(ActiveKeyWithBalances | undefined)[]> {
  const rows = await rowsOf<BalanceRow>(db, ACTIVE_KEYS_WITH_BALANCES, [[...new Set(hashes)]]);
  const byHash = new Map<string, ActiveKeyWithBalances>();
  for (const row of rows) {
    let found = byHash.get(row.keyHash);
    if (!found) {
      found = { keyId: row.keyId, keyHash: row.keyHash, accountId: row.accountId, handle: row.handle, balances: [] };
      byHash.set(row.keyHash, found);
    }
    if (row.asset !== null)
      found.balances.push({
        asset: row.asset as Asset,
        availableMinor: row.balance! - row.pendingDebits!,
        pendingMinor: row.pendingCredits!,
      });
  }
  // Requests that sent the same key share the row; each gets a copy it may keep as its own.
  return hashes.map((hash) => {
    const found = byHash.get(hash);
    return found && { ...found, balances: found.balances.map((b) => ({ ...b })) };
  });
}

/** The accounts these keys name, in the order asked (undefined for none): one statement. */
export async function findAccounts(db: Db, keys: readonly AccountKey[]): Promise<(AccountRow | undefined)[]> {
  const handles = new Set<string>();
  const emails = new Set<string>();
  const phones = new Set<string>();
  for (const key of keys) {
    if ('handle' in key) handles.add(key.handle);
    else if ('email' in key) emails.add(key.email);
    else phones.add(key.phone);
  }
  const rows = await rowsOf<AccountRow>(db, ACCOUNTS, [[...handles], [...emails], [...phones]]);
  const byHandle = new Map(rows.map((row) => [row.handle, row]));
  const byEmail = new Map(rows.map((row) => [row.email, row]));
  const byPhone = new Map(rows.filter((row) => row.phone !== null).map((row) => [row.phone, row]));
  return keys.map((key) => {
    const found = 'handle' in key ? byHandle.get(key.handle) : 'email' in key ? byEmail.get(key.email) : byPhone.get(key.phone);
    return found && { ...found };
  });
}

/** Coalesced look-ups on `db`; tests make their own to count statements. */
export function createAccountLookups(db: Db): AccountLookups {
  return {
    activeKey: coalesce({ maxBatch: MAX_BATCH, maxInFlight: LOADS_IN_FLIGHT, load: (hashes) => findActiveKeys(db, hashes) }),
    activeKeyWithBalances: coalesce({
      maxBatch: MAX_BATCH,
      maxInFlight: LOADS_IN_FLIGHT,
      load: (hashes) => findActiveKeysWithBalances(db, hashes),
    }),
    account: coalesce({ maxBatch: MAX_BATCH, maxInFlight: LOADS_IN_FLIGHT, load: (keys) => findAccounts(db, keys) }),
  };
}

// One set per database, made on first use: the statements of a turn can only be shared by calls
// on the same database, and the callers (the auth hook, the recipient of a transfer) are handed
// only the database. A WeakMap, so that a closed database's coalescers go with it.
const lookupsByDatabase = new WeakMap<Db, AccountLookups>();

/** The coalesced look-ups of `db`. */
export function accountLookups(db: Db): AccountLookups {
  let lookups = lookupsByDatabase.get(db);
  if (!lookups) {
    lookups = createAccountLookups(db);
    lookupsByDatabase.set(db, lookups);
  }
  return lookups;
}
