// A transfer stays `processing` only if its request died between recording the intent and
// recording the processor's answer (a crash, a lost connection). Such transfers are carried on
// here: the processor is asked again with the same idempotency key, so it answers with the charge
// it made (or makes it now, once), and the answer is recorded.
import { forEachItem } from '../platform/each-item.js';
import { claimTransfers } from './fiat-transfers-repository.js';
import { processTransfer } from './transfer-processing.js';
import type { PaymentProcessor } from '../adapters/processor/payment-processor.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';

/** A request normally finishes within seconds; older `processing` transfers are orphans. */
export const ORPHAN_AFTER_MS = 2 * 60 * 1000;
const LEASE_MS = 5 * 60 * 1000;
/**
 * A processor forgets idempotency keys after a while (Stripe: 24 hours); after that the same key
 * would make a new charge. An orphan that old, less this margin, is never sent again: it is
 * reported for an operator to look up.
 */
const KEY_LIFETIME_MARGIN_MS = 3600 * 1000;

export class UnrecoverableTransferError extends Error {
  override name = 'UnrecoverableTransferError';
}

export async function recoverOrphanedTransfers(
  deps: { db: Db; processor: PaymentProcessor; clock: Clock; config: Config },
  limit: number,
): Promise<number> {
  const now = deps.clock.now();
  const orphans = await claimTransfers(deps.db, {
    status: 'processing',
    dueColumn: 'created_at',
    dueBy: new Date(now.getTime() - ORPHAN_AFTER_MS),
    now,
    leaseMs: LEASE_MS,
    limit,
  });
  // A transfer whose call fails keeps its lease until it runs out; a later round tries again.
  const lifetimeMs = deps.processor.idempotencyKeyLifetimeMs;
  await forEachItem(orphans, async (transfer) => {
    if (lifetimeMs !== null && now.getTime() - transfer.createdAt.getTime() > lifetimeMs - KEY_LIFETIME_MARGIN_MS) {
      throw new UnrecoverableTransferError(
        `fiat transfer ${transfer.id} has waited for the processor's answer since ${transfer.createdAt.toISOString()}, beyond the idempotency window; look it up at the processor and record it by hand`,
      );
    }
    await processTransfer(deps, transfer);
  });
  return orphans.length;
}
