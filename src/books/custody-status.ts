// The last books-against-custody check (table custody_checks, one row per token, written by the
// custody check job): ok unless a token's chain holdings fell short of what the books say is in
// custody. No row yet means not checked yet, which is not a failure.
import type { Db } from '../db/database.js';

export interface CustodyStatus {
  ok: boolean;
  /** The oldest of the tokens' last checks; null before the first check. */
  checkedAt: Date | null;
  shortfalls: { token: string; booksMinor: bigint; chainMinor: bigint }[];
}

export async function readCustodyStatus(db: Db): Promise<CustodyStatus> {
  // One row per token: a bounded read.
  const rows = await db
    .selectFrom('custody_checks')
    .select(['token', 'books_minor', 'chain_minor', 'ok', 'checked_at'])
    .orderBy('token')
    .limit(16)
    .execute();
  const shortfalls = rows
    .filter((row) => !row.ok)
    .map((row) => ({ token: row.token, booksMinor: BigInt(row.books_minor), chainMinor: BigInt(row.chain_minor) }));
  const checkedAt = rows.length === 0 ? null : new Date(Math.min(...rows.map((row) => new Date(row.checked_at).getTime())));
  return { ok: shortfalls.length === 0, checkedAt, shortfalls };
}
