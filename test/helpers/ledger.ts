// The ledger as tests set it up and read it: one operation at a time, each in its own
// transaction, as a service applies `applyOperation` inside its own; and the platform's fees.
import { sql } from 'kysely';
import type { Db } from '../../src/db/database.js';
import { applyOperation, type AppliedTransfer, type Operation } from '../../src/ledger/ledger.js';
import type { Asset } from '../../src/money/assets.js';

/** Applies `operation` in a transaction of its own. */
export function commitOperation(db: Db, operation: Operation): Promise<AppliedTransfer[]> {
  return db.transaction().execute((trx) => applyOperation(trx, operation));
}

/** The platform's fees of one asset: the sum of every shard of the fees account (see FEE_SHARDS). */
export async function feesOf(db: Db, asset: Asset): Promise<bigint> {
  const row = await sql<{ total: string }>`
    select coalesce(sum(balance), 0)::text as total from ledger_accounts
     where kind = 'fees' and owner_account_id is null and asset = ${asset}`.execute(db);
  return BigInt(row.rows[0]!.total);
}
