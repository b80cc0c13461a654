// Every job the service runs, in the order a round runs them, each built from the services it
// calls.
import type { Job } from './job.js';
import { createIdempotencyCleanupJob } from './idempotency-cleanup-job.js';
import { createFiatRecoveryJob } from './fiat-recovery-job.js';
import { createAchSettlementJob } from './ach-settlement-job.js';
import { createPayoutJob } from './payout-job.js';
import { createHoldReleaseJob } from './hold-release-job.js';
import { createRefundReconciliationJob } from './refund-reconciliation-job.js';
import { createOutboxJob } from './outbox-job.js';
import { createWithdrawalJob } from './withdrawal-job.js';
import { createX402Job } from './x402-job.js';
import { createDepositWatcherJob } from './deposit-watcher-job.js';
import { createCircleDepositPollJob } from './circle-deposit-poll-job.js';
import type { CircleDepositPoll } from '../stablecoin/deposits/circle-deposit-poll.js';
import { createSweepJob } from './sweep-job.js';
import { createSetupReconciliationJob } from './setup-reconciliation-job.js';
import { createCustodyCheckJob } from './custody-check-job.js';
import { createTreasuryJob } from './treasury-job.js';
import { createWebhookDeliveryJob } from './webhook-delivery-job.js';
import { createEventRetentionJob } from './event-retention-job.js';
import { createLimitVolumeRetentionJob } from './limit-volume-retention-job.js';
import { createSnapshotJob } from './snapshot-job.js';

/** The services the jobs call. */
export type JobServices = Parameters<typeof createIdempotencyCleanupJob>[0] &
  Parameters<typeof createOutboxJob>[0] &
  Parameters<typeof createWithdrawalJob>[0] &
  Parameters<typeof createX402Job>[0] &
  Parameters<typeof createDepositWatcherJob>[0] & { circleDepositPoll: CircleDepositPoll | null } & Parameters<typeof createSweepJob>[0] &
  Parameters<typeof createTreasuryJob>[0] &
  Parameters<typeof createCustodyCheckJob>[0] &
  Parameters<typeof createLimitVolumeRetentionJob>[0] &
  Parameters<typeof createSnapshotJob>[0] &
  Parameters<typeof createEventRetentionJob>[0] &
  Parameters<typeof createWebhookDeliveryJob>[0] &
  Parameters<typeof createFiatRecoveryJob>[0] &
  Parameters<typeof createAchSettlementJob>[0] &
  Parameters<typeof createPayoutJob>[0] &
  Parameters<typeof createHoldReleaseJob>[0] &
  Parameters<typeof createRefundReconciliationJob>[0] &
  Parameters<typeof createSetupReconciliationJob>[0];

// Settlement runs before payouts so that money that settled in this round is paid out in it too.
export function allJobs(services: JobServices): Job[] {
  return [
    createIdempotencyCleanupJob(services),
    createFiatRecoveryJob(services),
    createSetupReconciliationJob(services),
    createAchSettlementJob(services),
    // Before payouts: money released in this round is paid out in it too.
    createHoldReleaseJob(services),
    createRefundReconciliationJob(services),
    createPayoutJob(services),
    // Chain jobs (one line each). The outbox first, so that what it finds final is acted on in the same round.
    createOutboxJob(services),
    createWithdrawalJob(services),
    createX402Job(services),
    // WALLET_PROVIDER=circle: Circle's inbound transactions, not the chain's logs, are users' deposits.
    services.circleDepositPoll
      ? createCircleDepositPollJob({ circleDepositPoll: services.circleDepositPoll })
      : createDepositWatcherJob(services),
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
