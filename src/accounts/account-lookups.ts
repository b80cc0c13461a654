// The look-ups every authenticated request makes (its API key, with or without the account's
// balances) and that every transfer and quote makes (its recipient), coalesced: the calls made in
// one turn of the event loop share one statement (src/platform/coalesce.ts). Keys and accounts
// share it too (one UNION ALL): under load a turn holds the keys of the requests just read and the
// recipients of the requests just authenticated, and a quote asks for its recipient in the same
// turn as its key (http/plugins/auth.ts), so that both come back in one round trip. Nothing is
// cached, so a key revoked before a request is refused by that request, in every process.
//
// The statements are prebuilt SQL texts with one array parameter per kind of key: the same text for
// every batch size (one plan for PostgreSQL to keep), and no query builder to run per call.
import { CompiledQuery } from 'kysely';
import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { AccountsTable } from '../db/schema.js';
import type { OwnerBalance } from '../ledger/ledger-queries.js';
import type { Asset } from '../money/assets.js';
import { coalesce, LOADS_IN_FLIGHT, type Coalesced } from '../platform/coalesce.js';
import type { AccountRow } from './accounts-repository.js';

/** An account's freeze columns (migration 0024), as compliance/freezes reads them. */
export type FreezeColumns = Pick<Selectable<AccountsTable>, 'frozen_scope' | 'frozen_id' | 'frozen_at' | 'frozen_by'>;

/** An active (never revoked) API key and its account. */
export interface ActiveKey {
  keyId: number;
  keyHash: string;
  accountId: number;
  handle: string;
  /** The account's freeze, read in the key's statement: a quote's check needs no statement of its own. */
  freeze: FreezeColumns;
}

export interface ActiveKeyWithBalances extends Omit<ActiveKey, 'freeze'> {
  /** The account's `available` ledger accounts, by asset; none for an asset never held. */
  balances: OwnerBalance[];
}

/** An account named by its handle (upper case), its normalised e-mail or its E.164 phone. */
export type AccountKey = { handle: string } | { email: string } | { phone: string };

/** A look-up of an account already under way (started with the request's key): which one, and its row. */
export interface AccountLookup {
  key: AccountKey;
  row: Promise<AccountRow | undefined>;
}

/** Whether two keys name the account the same way. */
export function sameAccountKey(a: AccountKey, b: AccountKey): boolean {
  if ('handle' in a) return 'handle' in b && a.handle === b.handle;
  if ('email' in a) return 'email' in b && a.email === b.email;
  return 'phone' in b && a.phone === b.phone;
}

export interface AccountLookups {
  /** Shares its statement with `account`. */
  activeKey: Coalesced<string, ActiveKey | undefined>;
  activeKeyWithBalances: Coalesced<string, ActiveKeyWithBalances | undefined>;
  /** Shares its statement with `activeKey`. */
  account: Coalesced<AccountKey, AccountRow | undefined>;
}

// Enough to cover one turn under heavy load in one statement, small enough that its arrays stay cheap.
const MAX_BATCH = 256;

// Both statements call functions of migrations 0017 and 0037, which keep one plan per connection:
// planning the statements anew on every call cost more than running them. Key rows carry "keyHash"
// (never null) and the key's account's id, handle and freeze; account rows have a null "keyHash"
// and the account's columns. With balances, one row per (key, available ledger account), or one with null
// balance columns for an account that holds nothing: plain columns, so no JSON to build in the
// database nor to parse here.
const ACTIVE_KEYS_AND_ACCOUNTS = 'select * from peerpay_keys_freezes_and_accounts($1::text[], $2::text[], $3::text[], $4::text[])';
const ACTIVE_KEYS_WITH_BALANCES = 'select * from peerpay_keys_with_balances($1::text[])';

/** What one statement answers for: an API key (by its hash) or an account. */
export type IdentityKey = { keyHash: string } | { account: AccountKey };

type KeyOrAccountRow = AccountRow & {
  keyId: number | null;
  keyHash: string | null;
  frozenScope: FreezeColumns['frozen_scope'];
  frozenId: string | null;
  frozenAt: Date | null;
  frozenBy: string | null;
};

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

/** The active keys and the accounts asked for, in the order asked (undefined for none): one statement. */
export async function findKeysAndAccounts(db: Db, asked: readonly IdentityKey[]): Promise<(ActiveKey | AccountRow | undefined)[]> {
  const hashes = new Set<string>();
  const handles = new Set<string>();
  const emails = new Set<string>();
  const phones = new Set<string>();
  for (const one of asked) {
    if ('keyHash' in one) hashes.add(one.keyHash);
    else if ('handle' in one.account) handles.add(one.account.handle);
    else if ('email' in one.account) emails.add(one.account.email);
    else phones.add(one.account.phone);
  }
  const rows = await rowsOf<KeyOrAccountRow>(db, ACTIVE_KEYS_AND_ACCOUNTS, [[...hashes], [...handles], [...emails], [...phones]]);
  const byHash = new Map<string, ActiveKey>();
  const byHandle = new Map<string, AccountRow>();
  const byEmail = new Map<string, AccountRow>();
  const byPhone = new Map<string, AccountRow>();
  for (const { keyId, keyHash, frozenScope, frozenId, frozenAt, frozenBy, ...account } of rows) {
    if (keyHash !== null) {
      const freeze = { frozen_scope: frozenScope, frozen_id: frozenId, frozen_at: frozenAt, frozen_by: frozenBy };
      byHash.set(keyHash, { keyId: keyId!, keyHash, accountId: account.id, handle: account.handle, freeze });
    } else {
      byHandle.set(account.handle, account);
      byEmail.set(account.email, account);
      if (account.phone !== null) byPhone.set(account.phone, account);
    }
  }
  // Each call gets a copy of its own: two requests naming the same account never share an object.
  return asked.map((one) => {
    if ('keyHash' in one) {
      const found = byHash.get(one.keyHash);
      return found && { ...found, freeze: { ...found.freeze } };
    }
    const key = one.account;
    const found = 'handle' in key ? byHandle.get(key.handle) : 'email' in key ? byEmail.get(key.email) : byPhone.get(key.phone);
    return found && { ...found };
  });
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

/** Coalesced look-ups on `db`; tests make their own to count statements. */
export function createAccountLookups(db: Db): AccountLookups {
  const keysAndAccounts = coalesce<IdentityKey, ActiveKey | AccountRow | undefined>({
    maxBatch: MAX_BATCH,
    maxInFlight: LOADS_IN_FLIGHT,
    load: (asked) => findKeysAndAccounts(db, asked),
  });
  return {
    activeKey: (keyHash) => keysAndAccounts({ keyHash }) as Promise<ActiveKey | undefined>,
    activeKeyWithBalances: coalesce({
      maxBatch: MAX_BATCH,
      maxInFlight: LOADS_IN_FLIGHT,
      load: (hashes) => findActiveKeysWithBalances(db, hashes),
    }),
    account: (account) => keysAndAccounts({ account }) as Promise<AccountRow | undefined>,
  };
}
