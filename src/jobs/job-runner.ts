// Background work, bounded: every tick runs each job once over at most `batchSize` items, never
// overlapping itself, and stop() waits for the tick under way. Jobs claim their items with
// SKIP LOCKED in short transactions, so any number of processes may run them.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Metrics } from '../platform/metrics.js';
import type { Job } from './job.js';

/** What runs the jobs: the jobs the composition root built, in the order a round runs them, and their metrics. */
export interface JobRunner {
  jobs: readonly Job[];
  metrics: Pick<Metrics, 'jobs'>;
}

/** How often each queue's rounds run. */
export type JobIntervals = Pick<Config, 'jobIntervalMs' | 'chainPollIntervalMs'>;

/** Runs every job once, now (also used by the sandbox clock helper after moving time). */
export async function runJobsOnce(
  runner: JobRunner,
  log?: FastifyBaseLogger,
  jobs: readonly Job[] = runner.jobs,
  stopping: () => boolean = () => false,
): Promise<void> {
  const metrics = runner.metrics.jobs;
  for (const job of jobs) {
    // A draining process ends its round after the job under way: the other processes' jobs take the rest.
    if (stopping()) return;
    const labels = { job: job.name };
    const endTimer = metrics.duration.startTimer(labels);
    metrics.runs.inc(labels);
    try {
      metrics.items.inc(labels, await job.run(log));
    } catch (error) {
      metrics.failures.inc(labels);
      log?.error({ err: error, job: job.name }, 'job failed; it runs again at the next tick');
    } finally {
      endTimer();
    }
  }
}

export function startJobs(
  runner: JobRunner & { config: JobIntervals },
  log: FastifyBaseLogger,
  jobs: readonly Job[] = runner.jobs,
): { stop(): Promise<void> } {
  const { config } = runner;
  // Each queue (the chain jobs, about every second, and the others) runs at most one round at a
  // time. A tick that falls due while the queue's round is still running is skipped, logged and
  // counted, never queued behind it: a slow round (a slow node or database) cannot pile up rounds
  // that would then run back to back.
  const queues = [
    { name: 'jobs', jobs: jobs.filter((job) => !job.chain && !job.queue), intervalMs: config.jobIntervalMs },
    { name: 'chain', jobs: jobs.filter((job) => job.chain), intervalMs: config.chainPollIntervalMs },
    {
      name: 'webhooks',
      jobs: jobs.filter((job) => job.queue === 'webhooks'),
      intervalMs: Math.min(config.jobIntervalMs, config.chainPollIntervalMs),
    },
  ].filter((queue) => queue.jobs.length > 0);
  let stopped = false;
  const running = new Map<string, Promise<void>>();
  const skipped = new Map<string, number>();
  const timers = queues.map((queue) => {
    const timer = setInterval(() => {
      if (stopped) return;
      if (running.has(queue.name)) {
        runner.metrics.jobs.skippedRounds.inc({ queue: queue.name });
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
        runJobsOnce(runner, log, queue.jobs, () => stopped).finally(() => running.delete(queue.name)),
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
