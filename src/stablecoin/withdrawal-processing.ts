// The withdrawal job's round. (1) Pending withdrawals whose outbox entry is final are ended: a
// confirmed transaction completes the withdrawal (the reservation is posted; the first completed
// withdrawal's address becomes the default when none is saved), a reverted one fails it (voided:
// gross refunded). Pure database work, one short transaction per withdrawal, rows other workers
// hold skipped. (2) Pending withdrawals that have no outbox entry long after their request began
// (the request died between reserving and sending) are sent now, or given up and refunded if the
// chain refuses them — the intent was recorded first, so nothing is lost or sent twice.
import type { Deps } from '../deps.js';
import { AppError, assert } from '../platform/errors.js';
import { findOutboxEntry } from './outbox/hot-wallet-outbox.js';
import { continueWithdrawal } from './withdrawal-service.js';
import { resolveWithdrawal } from './withdrawal-ledger.js';
import { recordWithdrawalEvent } from './stablecoin-events.js';
import { findResolvable, findUnsent, finishWithdrawal, lockWithdrawal, saveDefaultAddressIfNone } from './withdrawals-repository.js';

type ProcessingDeps = Pick<Deps, 'db' | 'chain' | 'wallets' | 'clock' | 'config'>;

/** Longer than any request takes from reserving to sending (the outbox bounds signing at 30 s). */
const UNSENT_GRACE_MS = 2 * 60 * 1000;

export async function processWithdrawals(deps: ProcessingDeps, limit: number): Promise<number> {
  let handled = 0;
  for (const id of await findResolvable(deps.db, limit)) if (await endWithdrawal(deps, id)) handled++;
  const unsent = await findUnsent(deps.db, { before: new Date(deps.clock.now().getTime() - UNSENT_GRACE_MS), limit });
  // Every item is tried; the first failure is rethrown once all have been.
  const failures: unknown[] = [];
  for (const w of unsent) {
    try {
      await continueWithdrawal(deps, w);
      handled++;
    } catch (error) {
      // A refusal was recorded (given up, refunded); anything else is tried again next round.
      if (!(error instanceof AppError && error.code === 'withdrawal_unavailable')) failures.push(error);
    }
  }
  if (failures.length > 0) throw failures[0];
  return handled;
}

async function endWithdrawal(deps: ProcessingDeps, id: string): Promise<boolean> {
  return deps.db.transaction().execute(async (trx) => {
    const w = await lockWithdrawal(trx, id, { skipLocked: true });
    if (w?.status !== 'pending') return false;
    const entry = await findOutboxEntry(trx, { purpose: 'withdrawal', referenceId: id });
    assert(entry && (entry.status === 'confirmed' || entry.status === 'reverted'), 'only a withdrawal whose transaction is final is ended');
    const now = deps.clock.now();
    const confirmed = entry.status === 'confirmed';
    const ended = await finishWithdrawal(trx, {
      id,
      status: confirmed ? 'complete' : 'failed',
      failureCode: confirmed ? null : 'reverted',
      txHash: entry.txHash,
      at: now,
      releaseKey: false,
    });
    assert(ended, 'a locked pending withdrawal can be ended');
    await resolveWithdrawal(trx, ended, confirmed ? 'post_pending' : 'void_pending');
    await recordWithdrawalEvent(trx, ended, now);
    if (confirmed) await saveDefaultAddressIfNone(trx, { accountId: w.accountId, address: w.address, at: now });
    return true;
  });
}
