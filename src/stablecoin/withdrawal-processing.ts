// The withdrawal job's round. (1) Pending withdrawals whose outbox entry is final are ended: a
// confirmed transaction completes the withdrawal (the reservation is posted; the first completed
// withdrawal's address becomes the default when none is saved), a reverted one fails it (voided:
// gross refunded). Pure database work, one short transaction per withdrawal, rows other workers
// hold skipped. (2) Pending withdrawals that have no outbox entry long after their request began
// (the request died between reserving and sending) are sent now, or given up and refunded if the
// chain refuses them — the intent was recorded first, so nothing is lost or sent twice. Withdrawals
// waiting for the hot wallet to hold their tokens (decision 0019) are tried every round, oldest
// first; one waiting longer than WITHDRAWAL_WAIT_ALERT_MS is reported once as an error log (and
// counted by the peerpay_withdrawals_waiting_overdue gauge), so none is ever silently stuck.
import type { FastifyBaseLogger } from 'fastify';
import { AppError, assert } from '../platform/errors.js';
import { findOutboxEntry } from './outbox/hot-wallet-outbox.js';
import { continueWithdrawal, type WithdrawalDeps } from './withdrawal-service.js';
import { resolveWithdrawal } from './withdrawal-ledger.js';
import {
  findResolvable,
  findUnsent,
  finishWithdrawal,
  lockWithdrawal,
  markWaiting,
  saveDefaultAddressIfNone,
  takeOverdueWaiting,
} from './withdrawals-repository.js';
import type { Token } from '../money/assets.js';
import { availableLiquidityMinor } from './treasury/hot-wallet-liquidity.js';
import { recordWithdrawalEvent } from './stablecoin-events.js';

/** What processing uses is what a withdrawal request uses: the request is continued here. */
type ProcessingDeps = WithdrawalDeps;

/** Longer than any request takes from reserving to sending (the outbox bounds signing at 30 s). */
const UNSENT_GRACE_MS = 2 * 60 * 1000;

export async function processWithdrawals(deps: ProcessingDeps, limit: number, log?: Pick<FastifyBaseLogger, 'error'>): Promise<number> {
  let handled = 0;
  for (const id of await findResolvable(deps.db, limit)) if (await endWithdrawal(deps, id)) handled++;
  const unsent = await findUnsent(deps.db, { before: new Date(deps.clock.now().getTime() - UNSENT_GRACE_MS), limit });
  // Every item is tried; the first failure is rethrown once all have been.
  const failures: unknown[] = [];
  // What the hot wallet can still pay, read once per token per round (a node that does not answer
  // fails the round here, not once per withdrawal); a withdrawal it cannot cover is not tried.
  const liquidity = new Map<Token, bigint>();
  for (const w of unsent) {
    const available = liquidity.get(w.currency) ?? (await availableLiquidityMinor(deps, deps.db, w.currency));
    liquidity.set(w.currency, available < w.netMinor ? available : available - w.netMinor);
    if (available < w.netMinor) {
      await markWaiting(deps.db, { id: w.id, at: deps.clock.now() });
      continue;
    }
    try {
      // Sent: with self its hash is known at once; with circle its outbox entry is recorded (the hash comes with COMPLETE).
      const after = await continueWithdrawal(deps, w);
      if (after.txHash !== null || (await findOutboxEntry(deps.db, { purpose: 'withdrawal', referenceId: w.id }))) handled++;
    } catch (error) {
      // A refusal was recorded (given up, refunded: the chain refused it, the account was frozen
      // meanwhile, or the destination is sanctioned, the account frozen); anything else is tried
      // again next round.
      const recorded =
        error instanceof AppError &&
        (error.code === 'withdrawal_unavailable' || error.code === 'account_frozen' || error.code === 'destination_sanctioned');
      if (!recorded) failures.push(error);
    }
  }
  await reportOverdue(deps, limit, log);
  if (failures.length > 0) throw failures[0];
  return handled;
}

/** Each withdrawal waiting longer than the bound is reported once, by whichever process sees it first. */
async function reportOverdue(deps: ProcessingDeps, limit: number, log?: Pick<FastifyBaseLogger, 'error'>): Promise<void> {
  const now = deps.clock.now();
  const overdue = await takeOverdueWaiting(deps.db, {
    before: new Date(now.getTime() - deps.config.treasury.withdrawalWaitAlertMs),
    at: now,
    limit,
  });
  for (const w of overdue) {
    log?.error(
      {
        withdrawalId: w.id,
        currency: w.currency,
        netMinor: String(w.net),
        waitingSeconds: Math.round((now.getTime() - w.createdAt.getTime()) / 1000),
        hotWallet: deps.wallets.hotWallet.address,
      },
      'withdrawal waiting for the hot wallet longer than WITHDRAWAL_WAIT_ALERT_MS: top up the hot wallet (or check the sweeps and the node)',
    );
  }
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
