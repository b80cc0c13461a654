// Shared by the ledger property tests: users to own ledger accounts, snapshots of the ledger, and a
// precise check that an operation was refused for insufficient balance.
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { sql } from 'kysely';
import type { Db } from '../../src/db/database.js';
import { AppError } from '../../src/platform/errors.js';

const HANDLE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Inserts `count` rows into `accounts` (the owners of user ledger accounts) and returns their ids. */
export async function createUsers(db: Db, count: number): Promise<number[]> {
  const rows = [...Array(count).keys()].map(() => {
    const suffix = [...randomBytes(8)].map((b) => HANDLE_ALPHABET[b % HANDLE_ALPHABET.length]).join('');
    return {
      handle: `PA-${suffix}`,
      email: `${suffix.toLowerCase()}-${randomBytes(4).toString('hex')}@example.com`,
      name: `User ${suffix}`,
      password_hash: 'x',
    };
  });
  const inserted = await db.insertInto('accounts').values(rows).returning('id').execute();
  return inserted.map((r) => r.id);
}

export interface AccountRow {
  code: string;
  balance: bigint;
  pending_debits: bigint;
  pending_credits: bigint;
  allow_negative: boolean;
}

export interface LedgerSnapshot {
  accounts: AccountRow[];
  transferCount: number;
}

/** Every ledger account (by code) and the number of transfers. */
export async function snapshotLedger(db: Db): Promise<LedgerSnapshot> {
  const accounts = await db
    .selectFrom('ledger_accounts')
    .select(['code', 'balance', 'pending_debits', 'pending_credits', 'allow_negative'])
    .orderBy('code')
    .execute();
  const count = await db
    .selectFrom('ledger_transfers')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return { accounts, transferCount: Number(count.n) };
}

/** Empties the ledger between property runs (the users stay). Transfers are immutable (no DELETE), so truncate. */
export async function resetLedger(db: Db): Promise<void> {
  await sql`truncate ledger_transfers, ledger_accounts`.execute(db);
}

/** True when `error` is the refusal an overdraft must produce; anything else fails the test. */
export function expectInsufficientBalance(error: unknown): void {
  expect(error, String(error)).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe('insufficient_balance');
}

/** Settles every promise and sorts the outcomes: successes, insufficient-balance refusals, anything else. */
export async function settleAll<T>(promises: readonly Promise<T>[]): Promise<{ ok: T[]; insufficient: number; other: unknown[] }> {
  const results = await Promise.allSettled(promises);
  const ok: T[] = [];
  const other: unknown[] = [];
  let insufficient = 0;
  for (const r of results) {
    if (r.status === 'fulfilled') ok.push(r.value);
    else if (r.reason instanceof AppError && r.reason.code === 'insufficient_balance') insufficient++;
    else other.push(r.reason);
  }
  return { ok, insufficient, other };
}
