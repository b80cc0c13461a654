// Finds the pending ledger transfers an operation left, so that they can be posted or voided.
import { sql } from 'kysely';
import type { Trx } from '../db/transaction.js';

/** Bound: a fiat operation leaves at most two pending transfers (credit and fee). */
const MAX_PENDING_PER_OPERATION = 8;

export async function pendingLedgerTransferIds(trx: Trx, operationId: string): Promise<bigint[]> {
  const rows = await sql<{ id: bigint }>`
    select id from ledger_transfers where operation_id = ${operationId} and kind = 'pending'
     order by id limit ${MAX_PENDING_PER_OPERATION}`.execute(trx);
  return rows.rows.map((r) => BigInt(r.id));
}
