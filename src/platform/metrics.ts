// peerpay's Prometheus registry: process metrics, the background jobs' runs, failures, duration and
// skipped rounds, and (once a database is attached) the backlogs that are cheap to count. One
// registry per Deps, so that several services in one process (tests) never share counts; the
// process metrics alone are the process's, collected once and merged into each.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface JobMetrics {
  readonly runs: Counter<'job'>;
  readonly failures: Counter<'job'>;
  readonly items: Counter<'job'>;
  readonly duration: Histogram<'job'>;
  /** Ticks that fell due while the queue's previous round was still running, and were skipped. */
  readonly skippedRounds: Counter<'queue'>;
}

/** REDIS_URL's shared rate limits: whether Redis answers, and the requests counted in memory because it did not. */
export interface SharedLimitsMetrics {
  readonly fallbacks: Counter;
  readonly redisUp: Gauge;
}

export interface Metrics {
  readonly registry: Registry;
  readonly jobs: JobMetrics;
  readonly sharedLimits: SharedLimitsMetrics;
  /** Group commit (decision 0018): the members of each batch, by how the batch ended. */
  readonly groupCommitBatches: Histogram<'ending'>;
}

// collectDefaultMetrics starts a garbage-collection observer that is never stopped and keeps its
// registry, and with it every metric registered there and whatever their collect() reads (a
// service's database): collected into a registry of their own, once per process, it keeps nothing
// of any service.
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export function createMetrics(): Metrics {
  const registry = Registry.merge([processMetrics(), new Registry()]);
  const registers = [registry];
  return {
    registry,
    groupCommitBatches: new Histogram({
      name: 'peerpay_group_commit_batch_size',
      help: 'Transfers per group-commit batch, by ending: committed, rerun_alone (rolled back, then each transfer alone) or failed',
      labelNames: ['ending'] as const,
      buckets: [1, 2, 4, 8, 16, 32, 64, 128],
      registers,
    }),
    jobs: {
      runs: new Counter({
        name: 'peerpay_job_runs_total',
        help: 'Rounds each background job ran',
        labelNames: ['job'] as const,
        registers,
      }),
      failures: new Counter({
        name: 'peerpay_job_failures_total',
        help: 'Rounds of each background job that threw',
        labelNames: ['job'] as const,
        registers,
      }),
      items: new Counter({
        name: 'peerpay_job_items_total',
        help: 'Items each background job handled',
        labelNames: ['job'] as const,
        registers,
      }),
      duration: new Histogram({
        name: 'peerpay_job_duration_seconds',
        help: 'Duration of one round of each background job',
        labelNames: ['job'] as const,
        buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
        registers,
      }),
      skippedRounds: new Counter({
        name: 'peerpay_job_rounds_skipped_total',
        help: 'Ticks skipped because the previous round of the queue (jobs or chain) was still running',
        labelNames: ['queue'] as const,
        registers,
      }),
    },
    sharedLimits: {
      fallbacks: new Counter({
        name: 'peerpay_rate_limit_redis_fallbacks_total',
        help: 'Requests whose rate limit was counted in this process memory because Redis (REDIS_URL) did not answer',
        registers,
      }),
      redisUp: new Gauge({
        name: 'peerpay_rate_limit_redis_up',
        help: '1 when the last rate-limit count reached Redis, 0 when it fell back to memory; absent without REDIS_URL',
        registers: [],
      }),
    },
  };
}
