// Missed webhooks must not leave a user's setup unrecorded: a processor-hosted setup that no webhook
// has confirmed within 15 minutes is read back from the processor (Stripe: the Checkout Session and
// its SetupIntent, or the connected account), and again every 15 minutes while it may still finish.
import { forEachItem } from '../platform/each-item.js';
import { claimLinksToReconcile, stopReconciling, type LinkToReconcile } from '../links/links-repository.js';
import { recordPayoutAccountReady, recordSetupCompleted } from './processor-setups.js';
import { RECONCILE_AFTER_MS } from './reconciliation-timing.js';
import { SETUP_LINK_RULES, isSetupPurpose } from './setup-links-service.js';
import type { PaymentProcessor } from '../adapters/processor/payment-processor.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';

/** A connected account may finish onboarding long after its 10-minute link; read it back for a day. */
const PAYOUT_ONBOARDING_WATCH_MS = 24 * 3600 * 1000;

type ReconcileDeps = { db: Db; processor: PaymentProcessor; clock: Clock };

/** Reads back up to `limit` due setups; returns how many it looked at. */
export async function reconcileSetups(deps: ReconcileDeps, limit: number): Promise<number> {
  if (!deps.processor.setupStatus) return 0;
  const now = deps.clock.now();
  const due = await claimLinksToReconcile(deps.db, { now, nextAt: new Date(now.getTime() + RECONCILE_AFTER_MS), limit });
  // A link whose reading fails stays due and is read next time.
  await forEachItem(due, (link) => reconcileOne(deps, link));
  return due.length;
}

async function reconcileOne(deps: ReconcileDeps, link: LinkToReconcile): Promise<void> {
  if (!isSetupPurpose(link.purpose) || !deps.processor.setupStatus) return stopReconciling(deps.db, link.id);
  const kind = SETUP_LINK_RULES[link.purpose].kind;
  const status = await deps.processor.setupStatus({ kind, sessionRef: link.processorRef });
  const now = deps.clock.now();
  if (status.state === 'complete') {
    await deps.db
      .transaction()
      .execute((trx) =>
        kind === 'payout'
          ? recordPayoutAccountReady(trx, { payoutAccountRef: status.instrumentRef, now })
          : recordSetupCompleted(trx, { sessionRef: link.processorRef, instrumentRef: status.instrumentRef, now }),
      );
    return;
  }
  const watchedUntil = kind === 'payout' ? link.createdAt.getTime() + PAYOUT_ONBOARDING_WATCH_MS : Number.POSITIVE_INFINITY;
  if (status.state === 'expired' || now.getTime() >= watchedUntil) await stopReconciling(deps.db, link.id);
}
