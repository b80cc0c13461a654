// Received money is paid out to the user's connected payout account. Two bounded steps, each a
// short transaction with no processor call inside it:
//   start: reserve an account's whole available balance in one currency as a pending payout;
//   send:  ask the processor to pay it (payout id as idempotency key), then post the reservation
//          (paid) or void it (failed: the money is available again).
import { AppError, assert } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { forEachItem } from '../platform/each-item.js';
import { recordEvent } from '../events/record-event.js';
import { presentEntry } from './fiat-history-view.js';
import { reservePayout, resolvePayout } from './fiat-ledger.js';
import { mayBePaidOut } from './card-risk/sender-standing.js';
import { frozenAmong } from '../compliance/freezes/freeze-checks.js';
import { lockSender } from './fiat-transfers-repository.js';
import {
  claimPendingPayouts,
  findPayoutCandidates,
  finishPayout,
  insertPayout,
  lockPayoutAccount,
  markPayoutInTransit,
  spendableBalance,
  type Payout,
  type PayoutCandidate,
} from './payouts-repository.js';
import type { PaymentProcessor } from '../adapters/processor/payment-processor.js';
import type { AccountLimits } from '../compliance/limits/limits-service.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';

type PayoutDeps = { db: Db; processor: PaymentProcessor; clock: Clock; limits: AccountLimits };

const LEASE_MS = 5 * 60 * 1000;
/** How long to wait before asking again about a payout the processor has not paid yet. */
const IN_TRANSIT_RECHECK_MS = 3600 * 1000;

/** Reserves up to `limit` new payouts; returns how many it created. */
export async function startPayouts(deps: PayoutDeps, limit: number): Promise<number> {
  const candidates = await findPayoutCandidates(deps.db, limit);
  let started = 0;
  for (const candidate of candidates) if (await startPayout(deps, candidate)) started++;
  return started;
}

async function startPayout(deps: PayoutDeps, candidate: PayoutCandidate): Promise<boolean> {
  try {
    return await deps.db.transaction().execute(async (trx) => {
      // Another worker is on this account (or it connected another payout account meanwhile).
      if ((await lockPayoutAccount(trx, candidate.accountId)) !== candidate.payoutRef) return false;
      if (!(await mayBePaidOut(trx, candidate.accountId, candidate.currency))) return false;
      // The account's row serialises its fiat movements, as for its transfers: a payout takes at
      // most what its limits leave (DESIGN §17); the rest waits until volume ages out.
      await lockSender(trx, candidate.accountId);
      // Under the account's lock to the commit: a freeze (either scope) committed before stops the
      // payout here; one committing after waits until it is reserved (decision 0035).
      if ((await frozenAmong(trx, [candidate.accountId], 'payout')).size > 0) return false;
      const now = deps.clock.now();
      const spendable = await spendableBalance(trx, candidate.accountId, candidate.currency);
      const room = await deps.limits.room(trx, { accountId: candidate.accountId, currency: candidate.currency, at: now });
      const amountMinor = spendable < room ? spendable : room;
      if (amountMinor <= 0n) return false;
      const payout: Payout = {
        id: newId('po'),
        accountId: candidate.accountId,
        currency: candidate.currency,
        amountMinor,
        status: 'pending',
        instrumentRef: candidate.payoutRef,
        processorRef: null,
        failureCode: null,
        createdAt: now,
        completedAt: null,
      };
      await insertPayout(trx, payout);
      await reservePayout(trx, payout);
      await deps.limits.record(trx, { accountId: payout.accountId, currency: payout.currency, amountMinor, at: now });
      return true;
    });
  } catch (error) {
    // The balance shrank between reading and reserving: nothing was written; next round.
    if (error instanceof AppError && error.code === 'insufficient_balance') return false;
    throw error;
  }
}

/** Sends up to `limit` pending payouts to the processor; returns how many it looked at. */
export async function sendPayouts(deps: PayoutDeps, limit: number): Promise<number> {
  const claimed = await claimPendingPayouts(deps.db, { now: deps.clock.now(), leaseMs: LEASE_MS, limit });
  await forEachItem(claimed, (payout) => sendPayout(deps, payout));
  return claimed.length;
}

async function sendPayout(deps: PayoutDeps, payout: Payout): Promise<void> {
  assert(payout.status === 'pending' && payout.instrumentRef, 'a pending payout names its payout account');
  const result = payout.processorRef
    ? await deps.processor.payoutStatus(payout.processorRef)
    : await deps.processor.payout({
        payoutAccountRef: payout.instrumentRef,
        currency: payout.currency,
        amountMinor: payout.amountMinor,
        idempotencyKey: payout.id,
      });
  const now = deps.clock.now();
  if (result.status === 'in_transit') {
    await markPayoutInTransit(deps.db, {
      id: payout.id,
      processorRef: result.payoutRef,
      recheckAt: new Date(now.getTime() + IN_TRANSIT_RECHECK_MS),
    });
    return;
  }
  const paid = result.status === 'paid';
  await deps.db.transaction().execute(async (trx) => {
    const finished = await finishPayout(trx, {
      id: payout.id,
      status: paid ? 'paid' : 'failed',
      processorRef: result.payoutRef,
      failureCode: result.status === 'failed' ? result.failureCode : null,
      completedAt: now,
    });
    if (!finished) return;
    await resolvePayout(trx, payout.id, paid ? 'post_pending' : 'void_pending');
    // The payout as GET /transactions lists it.
    const data = presentEntry({
      id: payout.id,
      type: 'payout',
      transferId: null,
      payoutId: payout.id,
      currency: payout.currency,
      amountMinor: payout.amountMinor,
      status: paid ? 'paid' : 'failed',
      paymentMethod: null,
      counterpartyHandle: null,
      createdAt: payout.createdAt,
      completedAt: now,
    });
    await recordEvent(trx, { accountId: payout.accountId, type: paid ? 'payout.paid' : 'payout.failed', subjectId: payout.id, data, now });
  });
}
