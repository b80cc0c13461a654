// Bank debits settle, or are returned, days after the transfer. For each pending transfer that is
// due, ask the processor where its debit stands and record that: settled → the pending credits are
// posted (completed); returned → they are voided (failed, the recipient's pending credit is gone);
// still pending → look again later.
import { assert } from '../platform/errors.js';
import type { FiatTransfer } from './fiat-transfer.js';
import { changeStatus, claimTransfers, postponeSettlement } from './fiat-transfers-repository.js';
import { resolveTransferCredit } from './fiat-ledger.js';
import type { Trx } from '../db/transaction.js';
import { recordTransferEvents } from './transfer-events.js';
import { creditOperationId } from './fiat-transfer.js';
import { repayFromAvailable } from './card-risk/take-back.js';
import { lockUser } from './card-risk/user-money.js';
import type { PaymentProcessor } from '../adapters/processor/payment-processor.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';

type SettlementDeps = { db: Db; processor: PaymentProcessor; clock: Clock };

const LEASE_MS = 5 * 60 * 1000;
/** When the processor says "not yet" past the expected date, look again after this long. */
const RECHECK_MS = 3600 * 1000;

/** Settles up to `limit` due transfers; returns how many it looked at. */
export async function settleDueTransfers(deps: SettlementDeps, limit: number): Promise<number> {
  const now = deps.clock.now();
  const due = await claimTransfers(deps.db, { status: 'pending', dueColumn: 'check_at', dueBy: now, now, leaseMs: LEASE_MS, limit });
  for (const transfer of due) await settleOne(deps, transfer);
  return due.length;
}

async function settleOne(deps: SettlementDeps, transfer: FiatTransfer): Promise<void> {
  assert(transfer.status === 'pending' && transfer.processorRef, 'a pending transfer has a bank debit at the processor');
  const debit = await deps.processor.bankDebitStatus(transfer.processorRef);
  if (debit.status === 'pending') {
    const now = deps.clock.now();
    const next = debit.recheckAt ?? (debit.expectedSettlementAt > now ? debit.expectedSettlementAt : new Date(now.getTime() + RECHECK_MS));
    await postponeSettlement(deps.db, { id: transfer.id, checkAt: next });
    return;
  }
  await deps.db
    .transaction()
    .execute((trx) => settlePendingTransfer(trx, { id: transfer.id, settled: debit.status === 'succeeded', now: deps.clock.now() }));
}

/**
 * Records a pending bank debit's end: settled → completed and the pending credits posted; returned
 * → failed and voided. Does nothing when the transfer is no longer pending (a webhook and this job
 * may both learn it; the first one records it).
 */
export async function settlePendingTransfer(trx: Trx, input: { id: string; settled: boolean; now: Date }): Promise<boolean> {
  const changed = await changeStatus(trx, {
    id: input.id,
    from: 'pending',
    to: input.settled ? 'completed' : 'failed',
    failureCode: input.settled ? null : 'bank_debit_returned',
    completedAt: input.settled ? input.now : null,
    checkAt: null,
  });
  if (!changed) return false;
  // The user's lock before the ledger's (card-risk/user-money.ts): settled money repays a debt.
  if (input.settled) await lockUser(trx, changed.recipientAccountId);
  await resolveTransferCredit(trx, changed, input.settled ? 'post_pending' : 'void_pending');
  if (input.settled) {
    await repayFromAvailable(trx, {
      accountId: changed.recipientAccountId,
      currency: changed.currency,
      amountMinor: changed.amountMinor,
      operationId: `${creditOperationId(changed.id)}:repay`,
    });
  }
  await recordTransferEvents(trx, { transfer: changed, from: 'pending', now: input.now });
  return true;
}
