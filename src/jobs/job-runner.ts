// Background work, bounded: every tick runs each job once over at most `batchSize` items, never
// overlapping itself, and stop() waits for the tick under way. Jobs claim their items with
// SKIP LOCKED in short transactions, so any number of processes may run them.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Metrics } from '../platform/metrics.js';
import type { Job } from './job.js';
import { idempotencyCleanupJob, type IdempotencyCleanupJobDeps } from './idempotency-cleanup-job.js';
import { fiatRecoveryJob, type FiatRecoveryJobDeps } from './fiat-recovery-job.js';
import { achSettlementJob, type AchSettlementJobDeps } from './ach-settlement-job.js';
import { payoutJob, type PayoutJobDeps } from './payout-job.js';
import { holdReleaseJob, type HoldReleaseJobDeps } from './hold-release-job.js';
import { refundReconciliationJob, type RefundReconciliationJobDeps } from './refund-reconciliation-job.js';
import { outboxJob, type OutboxJobDeps } from './outbox-job.js';
import { withdrawalJob, type WithdrawalJobDeps } from './withdrawal-job.js';
import { x402Job, type X402JobDeps } from './x402-job.js';
import { depositWatcherJob, type DepositWatcherJobDeps } from './deposit-watcher-job.js';
import { sweepJob, type SweepJobDeps } from './sweep-job.js';
import { setupReconciliationJob, type SetupReconciliationJobDeps } from './setup-reconciliation-job.js';
import { custodyCheckJob, type CustodyCheckJobDeps } from './custody-check-job.js';
import { treasuryJob, type TreasuryJobDeps } from './treasury-job.js';
import { webhookDeliveryJob, type WebhookDeliveryJobDeps } from './webhook-delivery-job.js';
import { eventRetentionJob, type EventRetentionJobDeps } from './event-retention-job.js';
import { limitVolumeRetentionJob, type LimitVolumeRetentionJobDeps } from './limit-volume-retention-job.js';
import { snapshotJob, type SnapshotJobDeps } from './snapshot-job.js';

/** What the jobs use, together: the composition root passes it. */
export type JobsDeps = IdempotencyCleanupJobDeps &
  FiatRecoveryJobDeps &
  AchSettlementJobDeps &
  PayoutJobDeps &
  HoldReleaseJobDeps &
  RefundReconciliationJobDeps &
  OutboxJobDeps &
  WithdrawalJobDeps &
  X402JobDeps &
  DepositWatcherJobDeps &
  SweepJobDeps &
  SetupReconciliationJobDeps &
  CustodyCheckJobDeps &
  TreasuryJobDeps &
  WebhookDeliveryJobDeps &
  EventRetentionJobDeps &
  LimitVolumeRetentionJobDeps &
  SnapshotJobDeps;

/** The runner's own: the interval settings and the jobs' metrics. */
export type JobRunnerDeps = JobsDeps & { config: Config; metrics: Metrics };

/** Every job the service runs, in the order a tick runs them. */
// Settlement runs before payouts so that money that settled in this round is paid out in it too.
export const JOBS: Job<JobsDeps>[] = [
  idempotencyCleanupJob,
  fiatRecoveryJob,
  setupReconciliationJob,
  achSettlementJob,
  // Before payouts: money released in this round is paid out in it too.
  holdReleaseJob,
  refundReconciliationJob,
  payoutJob,
  // Chain jobs (one line each). The outbox first, so that what it finds final is acted on in the same round.
  outboxJob,
  withdrawalJob,
  x402Job,
  depositWatcherJob,
  sweepJob,
  treasuryJob,
  // Last: books against custody, at most once a minute (jobs/custody-check-job.ts).
  custodyCheckJob,
  eventRetentionJob,
  limitVolumeRetentionJob,
  // The console's charts: at most one take per 5 minutes across all processes.
  snapshotJob,
  // Its own queue (events/webhook-delivery.ts); last, so that a tick run by hand sends what the others recorded.
  webhookDeliveryJob,
];

/** Runs every job once, now (also used by the sandbox clock helper after moving time). */
export async function runJobsOnce(
  deps: JobRunnerDeps,
  log?: FastifyBaseLogger,
  jobs: readonly Job<JobsDeps>[] = JOBS,
  stopping: () => boolean = () => false,
): Promise<void> {
  const metrics = deps.metrics.jobs;
  for (const job of jobs) {
    // A draining process ends its round after the job under way: the other processes' jobs take the rest.
    if (stopping()) return;
    const labels = { job: job.name };
    const endTimer = metrics.duration.startTimer(labels);
    metrics.runs.inc(labels);
    try {
      metrics.items.inc(labels, await job.run(deps, log));
    } catch (error) {
      metrics.failures.inc(labels);
      log?.error({ err: error, job: job.name }, 'job failed; it runs again at the next tick');
    } finally {
      endTimer();
    }
  }
}

export function startJobs(deps: JobRunnerDeps, log: FastifyBaseLogger, jobs: readonly Job<JobsDeps>[] = JOBS): { stop(): Promise<void> } {
  // Each queue (the chain jobs, about every second, and the others) runs at most one round at a
  // time. A tick that falls due while the queue's round is still running is skipped, logged and
  // counted, never queued behind it: a slow round (a slow node or database) cannot pile up rounds
  // that would then run back to back.
  const queues = [
    { name: 'jobs', jobs: jobs.filter((job) => !job.chain && !job.queue), intervalMs: deps.config.jobIntervalMs },
    { name: 'chain', jobs: jobs.filter((job) => job.chain), intervalMs: deps.config.chainPollIntervalMs },
    {
      name: 'webhooks',
      jobs: jobs.filter((job) => job.queue === 'webhooks'),
      intervalMs: Math.min(deps.config.jobIntervalMs, deps.config.chainPollIntervalMs),
    },
  ].filter((queue) => queue.jobs.length > 0);
  let stopped = false;
  const running = new Map<string, Promise<void>>();
  const skipped = new Map<string, number>();
  const timers = queues.map((queue) => {
    const timer = setInterval(() => {
      if (stopped) return;
      if (running.has(queue.name)) {
        deps.metrics.jobs.skippedRounds.inc({ queue: queue.name });
        skipped.set(queue.name, (skipped.get(queue.name) ?? 0) + 1);
        return;
      }
      const missed = skipped.get(queue.name) ?? 0;
      if (missed > 0) {
        // Once per slow round, not once per skipped tick.
        log.warn(
          { queue: queue.name, skippedRounds: missed, intervalMs: queue.intervalMs },
          'a round outlasted its interval; the ticks due meanwhile were skipped',
        );
        skipped.delete(queue.name);
      }
      running.set(
        queue.name,
        runJobsOnce(deps, log, queue.jobs, () => stopped).finally(() => running.delete(queue.name)),
      );
    }, queue.intervalMs);
    timer.unref();
    return timer;
  });
  return {
    // Waits for the job under way in each queue: its claimed items are finished (their leases
    // cleared) and the deposit watcher's advisory lock is released, so that nothing waits for a
    // lease to run out on another process.
    async stop() {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      await Promise.all(running.values());
      for (const [queue, missed] of skipped) {
        log.warn({ queue, skippedRounds: missed }, 'a round outlasted its interval; the ticks due meanwhile were skipped');
      }
    },
  };
}
