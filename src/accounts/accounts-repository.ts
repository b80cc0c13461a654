// SQL for accounts and their API keys.
import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { AccountsTable } from '../db/schema.js';
import type { Trx } from '../db/transaction.js';

export interface AccountRow {
  id: number;
  handle: string;
  email: string;
  name: string;
  phone: string | null;
  website: string | null;
  discoverable: boolean;
  walletId: string | null;
  depositAddress: string | null;
}

export const ACCOUNT_COLUMNS = [
  'id',
  'handle',
  'email',
  'name',
  'phone',
  'website',
  'discoverable',
  'wallet_id',
  'deposit_address',
] as const;

export function toAccount(row: Pick<Selectable<AccountsTable>, (typeof ACCOUNT_COLUMNS)[number]>): AccountRow {
  return {
    id: row.id,
    handle: row.handle,
    email: row.email,
    name: row.name,
    phone: row.phone,
    website: row.website,
    discoverable: row.discoverable,
    walletId: row.wallet_id,
    depositAddress: row.deposit_address,
  };
}

export async function findAccountByEmail(db: Db | Trx, email: string) {
  const row = await db
    .selectFrom('accounts')
    .select([...ACCOUNT_COLUMNS, 'password_hash', 'failed_logins', 'failed_logins_since'])
    .where('email', '=', email)
    .executeTakeFirst();
  return row
    ? { ...toAccount(row), passwordHash: row.password_hash, failedLogins: row.failed_logins, failedLoginsSince: row.failed_logins_since }
    : undefined;
}

export async function findAccountByHandle(db: Db | Trx, handle: string): Promise<AccountRow | undefined> {
  const row = await db.selectFrom('accounts').select(ACCOUNT_COLUMNS).where('handle', '=', handle).executeTakeFirst();
  return row ? toAccount(row) : undefined;
}

export async function findAccountById(db: Db | Trx, id: number): Promise<AccountRow | undefined> {
  const row = await db.selectFrom('accounts').select(ACCOUNT_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toAccount(row) : undefined;
}

/** The handles of two accounts (a transfer's sender and recipient), read in one statement. */
export async function findHandles(db: Db | Trx, ids: { source: number; target: number }): Promise<{ source: string; target: string }> {
  const rows = await db.selectFrom('accounts').select(['id', 'handle']).where('id', 'in', [ids.source, ids.target]).execute();
  const handleOf = (id: number) => rows.find((r) => r.id === id)?.handle;
  const source = handleOf(ids.source);
  const target = handleOf(ids.target);
  if (source === undefined || target === undefined) throw new Error('invariant violated: a transfer names two accounts');
  return { source, target };
}

export async function insertAccount(
  trx: Trx,
  input: { handle: string; email: string; name: string; passwordHash: string; phone: string | null },
): Promise<number> {
  const row = await trx
    .insertInto('accounts')
    .values({ handle: input.handle, email: input.email, name: input.name, password_hash: input.passwordHash, phone: input.phone })
    .onConflict((oc) => oc.column('email').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? 0;
}

export async function setWallet(trx: Trx, accountId: number, wallet: { walletId: string; address: string }): Promise<void> {
  await trx
    .updateTable('accounts')
    .set({ wallet_id: wallet.walletId, deposit_address: wallet.address })
    .where('id', '=', accountId)
    .execute();
}

export async function insertApiKey(db: Db | Trx, accountId: number, key: { hash: string; last4: string }): Promise<void> {
  await db.insertInto('api_keys').values({ account_id: accountId, key_hash: key.hash, last4: key.last4 }).execute();
}

// The API-key look-ups of authentication are in account-lookups.ts, coalesced.

export async function revokeKey(db: Db, keyId: number, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('id', '=', keyId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Counts one sign-in attempt, before its password is checked (DESIGN §15), in one atomic update:
 * a new window starts when the last one is over, otherwise the attempt is counted within it. Parallel
 * attempts each see their own count, so that no more than the allowed number are ever checked. The
 * count is cleared again when the password is right.
 */
export async function countLoginAttempt(
  db: Db,
  accountId: number,
  now: Date,
  windowMs: number,
): Promise<{ attempts: number; since: Date }> {
  const windowStart = new Date(now.getTime() - windowMs);
  const row = await db
    .updateTable('accounts')
    .set((eb) => ({
      failed_logins: eb
        .case()
        .when('failed_logins_since', 'is', null)
        .then(1)
        .when('failed_logins_since', '<', windowStart)
        .then(1)
        .else(eb('failed_logins', '+', 1))
        .end(),
      failed_logins_since: eb
        .case()
        .when('failed_logins_since', 'is', null)
        .then(now)
        .when('failed_logins_since', '<', windowStart)
        .then(now)
        .else(eb.ref('failed_logins_since'))
        .end(),
    }))
    .where('id', '=', accountId)
    .returning(['failed_logins', 'failed_logins_since'])
    .executeTakeFirstOrThrow();
  return { attempts: row.failed_logins, since: row.failed_logins_since ?? now };
}

export async function clearLoginFailures(db: Db, accountId: number): Promise<void> {
  await db.updateTable('accounts').set({ failed_logins: 0, failed_logins_since: null }).where('id', '=', accountId).execute();
}

export async function updateProfile(
  db: Db,
  accountId: number,
  patch: { name?: string; phone?: string | null; website?: string | null; discoverable?: boolean },
): Promise<AccountRow> {
  const row = await db.updateTable('accounts').set(patch).where('id', '=', accountId).returning(ACCOUNT_COLUMNS).executeTakeFirstOrThrow();
  return toAccount(row);
}

export async function findPasswordHash(db: Db | Trx, accountId: number): Promise<string | undefined> {
  const row = await db.selectFrom('accounts').select('password_hash').where('id', '=', accountId).executeTakeFirst();
  return row?.password_hash;
}

export async function setPasswordHash(db: Db | Trx, accountId: number, passwordHash: string): Promise<void> {
  await db.updateTable('accounts').set({ password_hash: passwordHash }).where('id', '=', accountId).execute();
}

/** Revokes every active key of the account except `exceptKeyId` (none when null); answers how many. */
export async function revokeAccountKeys(db: Db | Trx, input: { accountId: number; exceptKeyId: number | null; at: Date }): Promise<number> {
  let query = db
    .updateTable('api_keys')
    .set({ revoked_at: input.at })
    .where('account_id', '=', input.accountId)
    .where('revoked_at', 'is', null);
  if (input.exceptKeyId !== null) query = query.where('id', '<>', input.exceptKeyId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}
