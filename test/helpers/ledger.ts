// Tests set up balances (and exercise the ledger) one operation at a time, each in its own
// transaction, as a service does with `applyOperation` inside its own.
import type { Db } from '../../src/db/database.js';
import { applyOperation, type AppliedTransfer, type Operation } from '../../src/ledger/ledger.js';

/** Applies `operation` in a transaction of its own. */
export function commitOperation(db: Db, operation: Operation): Promise<AppliedTransfer[]> {
  return db.transaction().execute((trx) => applyOperation(trx, operation));
}
