// Chain custody against the books, per token, as the last custody check found them (it reads every
// deposit address at one pinned block: too costly to repeat per page view; books/custody-check.ts).
// The chain may hold more than the books (deposits awaiting confirmations, gas, tokens sent to the
// hot wallet directly), never less: a surplus is a line to explain, a shortfall one to act on.
import type { Db } from '../../db/database.js';
import { isToken } from '../../money/assets.js';
import type { CustodySummary, ReconciliationLine } from './reconciliation-lines.js';

export async function readCustodyAgainstBooks(db: Db): Promise<{ custody: CustodySummary[]; lines: ReconciliationLine[] }> {
  // One row per token: a bounded read.
  const rows = await db
    .selectFrom('custody_checks')
    .select(['token', 'books_minor', 'chain_minor', 'ok', 'block_number', 'checked_at'])
    .orderBy('token')
    .limit(16)
    .execute();
  const custody: CustodySummary[] = rows
    .filter((row) => isToken(row.token))
    .map((row) => ({
      token: row.token,
      booksMinor: BigInt(row.books_minor),
      chainMinor: BigInt(row.chain_minor),
      ok: row.ok,
      checkedAt: new Date(row.checked_at),
      blockNumber: BigInt(row.block_number),
    }));
  const lines = custody
    .filter((c) => c.chainMinor !== c.booksMinor)
    .map((c): ReconciliationLine => ({
      day: c.checkedAt.toISOString().slice(0, 10),
      asset: c.token,
      kind: 'custody',
      subject: `custody check at block ${c.blockNumber}`,
      expectedMinor: c.chainMinor,
      foundMinor: c.booksMinor,
      note:
        c.chainMinor > c.booksMinor
          ? 'the chain holds more than the books: deposits awaiting confirmations, gas or tokens sent in directly'
          : 'shortfall: the books promise more than the chain holds',
    }));
  return { custody, lines };
}
