// The freeze columns of `accounts` (migration 0024). Which lock each read takes is the point of
// this file (decision 0035): the freeze and unfreeze take FOR UPDATE on the account's row, which
// conflicts with every lock an outgoing movement holds on that row until its commit — FOR NO KEY
// UPDATE where the movement already serialises its sender there (fiat sends, take-backs), FOR KEY
// SHARE elsewhere (a stablecoin group commit, a withdrawal, an x402 payment from balance), which
// conflicts with nothing but FOR UPDATE, so that movements never queue on each other through it.
// Each locking read takes its lock and reads the freeze in one statement: when it waited on a
// freeze, PostgreSQL reads the row again as the freeze committed it.
import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { AccountsTable } from '../../db/schema.js';
import type { Trx } from '../../db/transaction.js';
import { assert } from '../../platform/errors.js';

export type FreezeScope = 'all' | 'payouts';

export interface Freeze {
  /** frz_…: names this freeze, the subject of its events. */
  id: string;
  scope: FreezeScope;
  since: Date;
  /** The operator who froze the account (`system` for an automatic control). */
  by: string;
}

/** At most this many accounts in one locking read: a group commit's senders. */
export const MAX_ACCOUNTS_PER_FREEZE_READ = 4096;

const COLUMNS = ['frozen_scope', 'frozen_id', 'frozen_at', 'frozen_by'] as const;

type FreezeColumns = Pick<Selectable<AccountsTable>, (typeof COLUMNS)[number]>;

export function freezeOf(row: FreezeColumns): Freeze | null {
  if (row.frozen_scope === null) return null;
  assert(row.frozen_id !== null && row.frozen_at !== null && row.frozen_by !== null, 'a freeze is recorded whole');
  return { id: row.frozen_id, scope: row.frozen_scope, since: row.frozen_at, by: row.frozen_by };
}

/**
 * Locks the account's row FOR UPDATE (waiting for every movement of the account in flight) and
 * reads its freeze; undefined when there is no such account.
 */
export async function lockFreeze(trx: Trx, accountId: number): Promise<{ freeze: Freeze | null } | undefined> {
  const row = await trx.selectFrom('accounts').select(COLUMNS).where('id', '=', accountId).forUpdate().executeTakeFirst();
  return row ? { freeze: freezeOf(row) } : undefined;
}

export async function writeFreeze(trx: Trx, accountId: number, freeze: Freeze | null): Promise<void> {
  await trx
    .updateTable('accounts')
    .set({
      frozen_scope: freeze?.scope ?? null,
      frozen_id: freeze?.id ?? null,
      frozen_at: freeze?.since ?? null,
      frozen_by: freeze?.by ?? null,
    })
    .where('id', '=', accountId)
    .execute();
}

/**
 * Locks the sender's row FOR NO KEY UPDATE (the lock a fiat send serialises its sender on) and
 * reads its freeze in the same statement: one round trip where a lock and a key-share read were two.
 */
export async function lockSenderReadingFreeze(trx: Trx, accountId: number): Promise<Freeze | null> {
  const row = await trx.selectFrom('accounts').select(COLUMNS).where('id', '=', accountId).forNoKeyUpdate().executeTakeFirstOrThrow();
  return freezeOf(row);
}

/**
 * Locks the accounts' rows FOR NO KEY UPDATE in id order, in one statement, reading their freezes:
 * what a fiat send takes (lockSenderReadingFreeze) for a group commit of them, its recipients' rows
 * too when it credits them in the same transaction.
 */
export function lockAccountsReadingFreezes(trx: Trx, accountIds: readonly number[]): Promise<Map<number, Freeze | null>> {
  return lockReadingFreezes(trx, accountIds, sql`for no key update`);
}

/** The account's freeze as last committed, without a lock (an early refusal, a quote, a view). */
export async function readFreeze(db: Db | Trx, accountId: number): Promise<Freeze | null> {
  const row = await db.selectFrom('accounts').select(COLUMNS).where('id', '=', accountId).executeTakeFirst();
  return row ? freezeOf(row) : null;
}

/** The freezes of `accountIds` as last committed, without a lock, in one statement (absent: no such account). */
export async function readFreezes(db: Db, accountIds: readonly number[]): Promise<Map<number, Freeze | null>> {
  const rows = await sql<FreezeColumns & Pick<Selectable<AccountsTable>, 'id'>>`
    select id, frozen_scope, frozen_id, frozen_at, frozen_by
      from accounts
     where id = any(${[...new Set(accountIds)]}::integer[])`.execute(db);
  return new Map(rows.rows.map((row) => [row.id, freezeOf(row)]));
}

/**
 * Takes a key-share lock on each account's row, in id order, and reads their freezes in the same
 * statement: from here to the commit no freeze of these accounts can commit.
 */
export function lockFreezesShared(trx: Trx, accountIds: readonly number[]): Promise<Map<number, Freeze | null>> {
  return lockReadingFreezes(trx, accountIds, sql`for key share`);
}

/** The accounts' rows locked with `lock` in id order, in one statement, with their freezes. */
async function lockReadingFreezes(trx: Trx, accountIds: readonly number[], lock: RawBuilder<unknown>): Promise<Map<number, Freeze | null>> {
  const ids = [...new Set(accountIds)].sort((a, b) => a - b);
  assert(ids.length <= MAX_ACCOUNTS_PER_FREEZE_READ, 'a bounded number of accounts per freeze read');
  if (ids.length === 0) return new Map();
  const rows = await sql<FreezeColumns & Pick<Selectable<AccountsTable>, 'id'>>`
    select id, frozen_scope, frozen_id, frozen_at, frozen_by
      from accounts
     where id = any(${ids}::integer[])
     order by id
       ${lock}`.execute(trx);
  return new Map(rows.rows.map((row) => [row.id, freezeOf(row)]));
}
