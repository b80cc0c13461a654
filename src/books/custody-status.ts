// The last books-against-custody check (table custody_checks, one row per token, written by the
// custody check job), as public readiness may tell it: ok unless a token's chain holdings fell
// short of what the books say is in custody, which tokens and since when, and no amount (the
// figures are for the operator's treasury view and the metrics). No row yet means not checked
// yet, which is not a failure.
import type { Db } from '../db/database.js';

export interface CustodyStatus {
  ok: boolean;
  /** The oldest of the tokens' last checks; null before the first check. */
  checkedAt: Date | null;
  /** The tokens whose last check found a shortfall, each with when its checks began failing. */
  failing: { token: string; since: Date }[];
}

export async function readCustodyStatus(db: Db): Promise<CustodyStatus> {
  // One row per token: a bounded read.
  const rows = await db
    .selectFrom('custody_checks')
    .select(['token', 'ok', 'checked_at', 'failing_since'])
    .orderBy('token')
    .limit(16)
    .execute();
  const failing = rows.filter((row) => !row.ok).map((row) => ({ token: row.token, since: new Date(row.failing_since ?? row.checked_at) }));
  const checkedAt = rows.length === 0 ? null : new Date(Math.min(...rows.map((row) => new Date(row.checked_at).getTime())));
  return { ok: failing.length === 0, checkedAt, failing };
}
