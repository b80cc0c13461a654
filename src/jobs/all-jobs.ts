// Every job the service runs, in the order a round runs them, each built from the services it
// calls. The fiat and webhook jobs are still handed what they use at every round (JobOver): they
// are bound here to that, given once.
import { bindJob, type Job } from './job.js';
import { createIdempotencyCleanupJob } from './idempotency-cleanup-job.js';
import { fiatRecoveryJob, type FiatRecoveryJobDeps } from './fiat-recovery-job.js';
import { achSettlementJob, type AchSettlementJobDeps } from './ach-settlement-job.js';
import { payoutJob, type PayoutJobDeps } from './payout-job.js';
import { holdReleaseJob, type HoldReleaseJobDeps } from './hold-release-job.js';
import { refundReconciliationJob, type RefundReconciliationJobDeps } from './refund-reconciliation-job.js';
import { createOutboxJob } from './outbox-job.js';
import { createWithdrawalJob } from './withdrawal-job.js';
import { createX402Job } from './x402-job.js';
import { createDepositWatcherJob } from './deposit-watcher-job.js';
import { createSweepJob } from './sweep-job.js';
import { setupReconciliationJob, type SetupReconciliationJobDeps } from './setup-reconciliation-job.js';
import { createCustodyCheckJob } from './custody-check-job.js';
import { createTreasuryJob } from './treasury-job.js';
import { createWebhookDeliveryJob } from './webhook-delivery-job.js';
import { createEventRetentionJob } from './event-retention-job.js';
import { createLimitVolumeRetentionJob } from './limit-volume-retention-job.js';
import { createSnapshotJob } from './snapshot-job.js';

/** What the fiat jobs use, together. */
export type FiatJobsDeps = FiatRecoveryJobDeps &
  AchSettlementJobDeps &
  PayoutJobDeps &
  HoldReleaseJobDeps &
  RefundReconciliationJobDeps &
  SetupReconciliationJobDeps;

/** The services the jobs call. */
export type JobServices = Parameters<typeof createIdempotencyCleanupJob>[0] &
  Parameters<typeof createOutboxJob>[0] &
  Parameters<typeof createWithdrawalJob>[0] &
  Parameters<typeof createX402Job>[0] &
  Parameters<typeof createDepositWatcherJob>[0] &
  Parameters<typeof createSweepJob>[0] &
  Parameters<typeof createTreasuryJob>[0] &
  Parameters<typeof createCustodyCheckJob>[0] &
  Parameters<typeof createLimitVolumeRetentionJob>[0] &
  Parameters<typeof createSnapshotJob>[0] &
  Parameters<typeof createEventRetentionJob>[0] &
  Parameters<typeof createWebhookDeliveryJob>[0] & { fiat: FiatJobsDeps };

// Settlement runs before payouts so that money that settled in this round is paid out in it too.
export function allJobs(services: JobServices): Job[] {
  const { fiat } = services;
  return [
    createIdempotencyCleanupJob(services),
    bindJob(fiatRecoveryJob, fiat),
    bindJob(setupReconciliationJob, fiat),
    bindJob(achSettlementJob, fiat),
    // Before payouts: money released in this round is paid out in it too.
    bindJob(holdReleaseJob, fiat),
    bindJob(refundReconciliationJob, fiat),
    bindJob(payoutJob, fiat),
    // Chain jobs (one line each). The outbox first, so that what it finds final is acted on in the same round.
    createOutboxJob(services),
    createWithdrawalJob(services),
    createX402Job(services),
    createDepositWatcherJob(services),
    createSweepJob(services),
    createTreasuryJob(services),
    // Last: books against custody, at most once a minute (jobs/custody-check-job.ts).
    createCustodyCheckJob(services),
    createEventRetentionJob(services),
    createLimitVolumeRetentionJob(services),
    // The console's charts: at most one take per 5 minutes across all processes.
    createSnapshotJob(services),
    // Its own queue (events/webhook-delivery.ts); last, so that a tick run by hand sends what the others recorded.
    createWebhookDeliveryJob(services),
  ];
}
