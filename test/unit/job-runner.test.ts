// The job runner's rounds are bounded: a round that outlasts its interval makes the ticks that fall
// due meanwhile skip (logged and counted), instead of queueing rounds that then run back to back.
// Every job's runs, failures and duration are metrics.
import { describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../../src/deps.js';
import { runJobsOnce, startJobs } from '../../src/jobs/job-runner.js';
import type { Job } from '../../src/jobs/job.js';
import { createMetrics } from '../../src/platform/metrics.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function fakeLog() {
  const lines: { level: string; message: string; fields: Record<string, unknown> }[] = [];
  const at = (level: string) => (fields: Record<string, unknown>, message: string) => lines.push({ level, message, fields });
  const log = { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') } as unknown as FastifyBaseLogger;
  return { log, lines };
}

function fakeDeps(intervals: { jobIntervalMs: number; chainPollIntervalMs: number }) {
  const metrics = createMetrics();
  return { deps: { config: intervals, metrics } as unknown as Deps, metrics };
}

async function metricValue(metrics: ReturnType<typeof createMetrics>, name: string, labels: Record<string, string>): Promise<number> {
  const metric = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === name);
  const value = metric?.values.find((v) => Object.entries(labels).every(([k, l]) => (v.labels as Record<string, unknown>)[k] === l));
  return value?.value ?? 0;
}

describe('startJobs', () => {
  it('skips the ticks that fall due while a round runs, and does not run them later back to back', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const starts: number[] = [];
    const slowOnce: Job = {
      name: 'slow-once',
      async run() {
        starts.push(Date.now());
        if (starts.length === 1) await gate;
        return 0;
      },
    };
    const { deps, metrics } = fakeDeps({ jobIntervalMs: 20, chainPollIntervalMs: 3_600_000 });
    const { log, lines } = fakeLog();
    const jobs = startJobs(deps, log, [slowOnce]);
    try {
      await sleep(400); // about 20 ticks fall due while the first round waits
      expect(starts).toHaveLength(1);
      release();
      const releasedAt = Date.now();
      await sleep(15);
      // Queued rounds would all run now, one after the other; skipped ones do not.
      expect(starts.filter((t) => t >= releasedAt).length).toBeLessThanOrEqual(1);
      await sleep(100);
      // Rounds go on at the interval after that.
      expect(starts.length).toBeGreaterThanOrEqual(3);
      expect(starts.length).toBeLessThanOrEqual(10);
    } finally {
      await jobs.stop();
    }
    expect(lines.some((line) => line.level === 'warn' && /skipped/.test(line.message) && line.fields.queue === 'jobs')).toBe(true);
    expect(await metricValue(metrics, 'peerpay_job_rounds_skipped_total', { queue: 'jobs' })).toBeGreaterThanOrEqual(10);
  });

  it('runs no round after stop(), and stop() waits for the round under way', async () => {
    let running = 0;
    let finished = 0;
    const job: Job = {
      name: 'short',
      async run() {
        running++;
        await sleep(30);
        finished++;
        return 0;
      },
    };
    const { deps } = fakeDeps({ jobIntervalMs: 10, chainPollIntervalMs: 10 });
    const jobs = startJobs(deps, fakeLog().log, [job, { ...job, name: 'short-chain', chain: true }]);
    await sleep(100);
    await jobs.stop();
    expect(finished).toBe(running);
    const after = running;
    await sleep(60);
    expect(running).toBe(after);
  });
});

describe('job metrics', () => {
  it('count runs and failures per job and observe their duration', async () => {
    const { deps, metrics } = fakeDeps({ jobIntervalMs: 1000, chainPollIntervalMs: 1000 });
    const ok: Job = { name: 'fine', run: async () => 3 };
    const failing: Job = {
      name: 'broken',
      run: async () => {
        throw new Error('boom');
      },
    };
    const { log, lines } = fakeLog();
    await runJobsOnce(deps, log, [ok, failing]);
    await runJobsOnce(deps, log, [ok, failing]);
    expect(await metricValue(metrics, 'peerpay_job_runs_total', { job: 'fine' })).toBe(2);
    expect(await metricValue(metrics, 'peerpay_job_runs_total', { job: 'broken' })).toBe(2);
    expect(await metricValue(metrics, 'peerpay_job_failures_total', { job: 'broken' })).toBe(2);
    expect(await metricValue(metrics, 'peerpay_job_failures_total', { job: 'fine' })).toBe(0);
    expect(await metricValue(metrics, 'peerpay_job_items_total', { job: 'fine' })).toBe(6);
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/peerpay_job_duration_seconds_count\{job="fine"\} 2/);
    expect(lines.filter((line) => line.level === 'error' && line.fields.job === 'broken')).toHaveLength(2);
  });
});
