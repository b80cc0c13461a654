// Background work, bounded: every tick runs each job once over at most `batchSize` items, never
// overlapping itself, and stop() waits for the tick under way. Jobs claim their items with
// SKIP LOCKED in short transactions, so any number of processes may run them.
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../deps.js';
import { deleteExpiredKeys } from '../platform/idempotency-store.js';
import { fiatRecoveryJob } from './fiat-recovery-job.js';
import { achSettlementJob } from './ach-settlement-job.js';
import { payoutJob } from './payout-job.js';
import { outboxJob } from './outbox-job.js';
import { withdrawalJob } from './withdrawal-job.js';
import { x402Job } from './x402-job.js';
import { depositWatcherJob } from './deposit-watcher-job.js';
import { sweepJob } from './sweep-job.js';
import { setupReconciliationJob } from './setup-reconciliation-job.js';

export interface Job {
  name: string;
  /** Does one bounded round of work; returns how many items it handled. */
  run(deps: Deps): Promise<number>;
  /** Follows the chain: runs every config.chainPollIntervalMs instead of every jobIntervalMs. */
  chain?: boolean;
}

const IDEMPOTENCY_RETENTION_MS = 48 * 3600 * 1000;

export const idempotencyCleanupJob: Job = {
  name: 'idempotency-cleanup',
  run: (deps) => deleteExpiredKeys(deps.db, new Date(Date.now() - IDEMPOTENCY_RETENTION_MS), 500),
};

/** Every job the service runs, in the order a tick runs them. */
// Settlement runs before payouts so that money that settled in this round is paid out in it too.
export const JOBS: Job[] = [
  idempotencyCleanupJob,
  fiatRecoveryJob,
  setupReconciliationJob,
  achSettlementJob,
  payoutJob,
  // Chain jobs (one line each). The outbox first, so that what it finds final is acted on in the same round.
  outboxJob,
  withdrawalJob,
  x402Job,
  depositWatcherJob,
  sweepJob,
];

/** Runs every job once, now (also used by the sandbox clock helper after moving time). */
export async function runJobsOnce(deps: Deps, log?: FastifyBaseLogger, jobs: readonly Job[] = JOBS): Promise<void> {
  for (const job of jobs) {
    try {
      await job.run(deps);
    } catch (error) {
      log?.error({ err: error, job: job.name }, 'job failed; it runs again at the next tick');
    }
  }
}

export function startJobs(deps: Deps, log: FastifyBaseLogger): { stop(): Promise<void> } {
  let current: Promise<void> = Promise.resolve();
  let stopped = false;
  const timer = setInterval(() => {
    current = current.then(() => (stopped ? undefined : runJobsOnce(deps, log, JOBS.filter((job) => !job.chain))));
  }, deps.config.jobIntervalMs);
  timer.unref();
  // Chain jobs have their own, faster tick (about a second). A tick still running when the next is
  // due is not queued behind: that one is skipped, so a slow node cannot pile up rounds.
  let chainRound: Promise<void> | null = null;
  const chainTimer = setInterval(() => {
    if (stopped || chainRound) return;
    chainRound = runJobsOnce(deps, log, JOBS.filter((job) => job.chain)).finally(() => (chainRound = null));
  }, deps.config.chainPollIntervalMs);
  chainTimer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearInterval(chainTimer);
      await current;
      await chainRound;
    },
  };
}
