// peerpay's Prometheus registry: process metrics, the background jobs' runs, failures, duration and
// skipped rounds, and (once a database is attached) the backlogs that are cheap to count. One
// registry per Deps, so that several services in one process (tests) never share counts.
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface JobMetrics {
  readonly runs: Counter<'job'>;
  readonly failures: Counter<'job'>;
  readonly items: Counter<'job'>;
  readonly duration: Histogram<'job'>;
  /** Ticks that fell due while the queue's previous round was still running, and were skipped. */
  readonly skippedRounds: Counter<'queue'>;
}

export interface Metrics {
  readonly registry: Registry;
  readonly jobs: JobMetrics;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
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
  };
}
