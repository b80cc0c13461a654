// Operations: GET /health/live answers while the process does; GET /health/ready checks the
// database, the chain (a cheap RPC with a short timeout), the custody check and draining, and names
// what fails; /metrics carries job and backlog metrics and, with METRICS_PORT, moves to a listener
// of its own (the main port's /metrics is then 404).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectProblem, registerUser, startTestServer, type TestServer } from '../helpers/test-server.js';
import { freePort } from '../helpers/free-port.js';
import { fund, accountIdOf } from '../helpers/stablecoin.js';
import { fundHotWallet, freshAddress, withdraw } from '../helpers/withdrawals.js';
import { runJobsOnce } from '../../src/jobs/job-runner.js';
import { createDepositWatcherJob } from '../../src/jobs/deposit-watcher-job.js';
import { bindListener } from '../../src/startup/start-up.js';
import { metricsRequestHandler } from '../../src/http/plugins/metrics.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const metricLine = (text: string, name: string) =>
  text.split('\n').find((line) => line.startsWith(`${name} `) || line.startsWith(`${name}{`));
const metricNumber = (text: string, name: string) => Number(metricLine(text, name)?.split(' ').at(-1));

describe('GET /health/live', () => {
  it('answers 200 without asking any dependency', async () => {
    const spy = vi.spyOn(server.deps.chain.chain, 'getBlockNumber');
    const response = await server.request('GET', '/health/live');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'live' });
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });
});

describe('GET /health/ready', () => {
  it('is 200 with every check passing', async () => {
    const response = await server.request('GET', '/health/ready');
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({
      status: 'ready',
      checks: {
        database: { status: 'pass' },
        chain: { status: 'pass' },
        custody: { status: 'pass' },
        gas: { status: 'pass' },
        draining: { status: 'pass' },
      },
    });
  });

  it('is 503 naming the chain when the chain does not answer within the short timeout', async () => {
    const spy = vi.spyOn(server.deps.chain.chain, 'getBlockNumber').mockImplementation(() => new Promise(() => {}));
    try {
      const started = Date.now();
      const response = await server.request('GET', '/health/ready');
      expect(Date.now() - started).toBeLessThan(5000);
      const problem = expectProblem(response, 503, 'not_ready');
      expect(problem.detail).toMatch(/chain/);
      expect(problem.detail).not.toMatch(/database|custody|draining/);
      expect(problem.checks.chain.status).toBe('fail');
      expect(problem.checks.database.status).toBe('pass');
    } finally {
      spy.mockRestore();
    }
  });

  it('is 503 naming the chain when the chain errors', async () => {
    const spy = vi.spyOn(server.deps.chain.chain, 'getBlockNumber').mockRejectedValue(new Error('connection refused'));
    try {
      const problem = expectProblem(await server.request('GET', '/health/ready'), 503, 'not_ready');
      expect(problem.checks.chain).toMatchObject({ status: 'fail' });
      expect(problem.detail).toMatch(/chain/);
    } finally {
      spy.mockRestore();
    }
  });

  it('is 503 naming custody when the last custody check found the chain short of the books', async () => {
    const { db } = server.deps;
    await db
      .insertInto('custody_checks')
      .values({ token: 'USDC', books_minor: '5000000', chain_minor: '4000000', block_number: 1n, ok: false, checked_at: new Date() })
      .execute();
    try {
      const problem = expectProblem(await server.request('GET', '/health/ready'), 503, 'not_ready');
      expect(problem.checks.custody.status).toBe('fail');
      expect(problem.detail).toMatch(/custody: .*USDC/);
      expect(problem.checks.database.status).toBe('pass');
    } finally {
      await db.deleteFrom('custody_checks').execute();
    }
    expect((await server.request('GET', '/health/ready')).status).toBe(200);
  });

  it('stays 200 when the last custody check is old, and says since when none has completed', async () => {
    const { db } = server.deps;
    const checkedAt = new Date(Date.now() - 25 * 60_000);
    await db
      .insertInto('custody_checks')
      .values({ token: 'USDC', books_minor: '5000000', chain_minor: '5000000', block_number: 1n, ok: true, checked_at: checkedAt })
      .execute();
    try {
      const response = await server.request('GET', '/health/ready');
      expect(response.status, response.text).toBe(200);
      expect(response.body.checks.custody).toEqual({
        status: 'pass',
        detail: `the last completed check (${checkedAt.toISOString()}) found no shortfall; none has completed since: see the custody-check job in the log`,
      });
    } finally {
      await db.deleteFrom('custody_checks').execute();
    }
  });

  it('GET /health keeps its contract', async () => {
    const response = await server.request('GET', '/health');
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('ok');
  });
});

describe('GET /health/ready when draining or without a database', () => {
  it('is 503 naming draining once the process drains, then naming the database when it is gone', async () => {
    const other = await startTestServer();
    try {
      other.deps.lifecycle.startDraining();
      const draining = expectProblem(await other.request('GET', '/health/ready'), 503, 'not_ready');
      expect(draining.checks.draining.status).toBe('fail');
      expect(draining.detail).toMatch(/draining/);
      // /health/live is unaffected: the process still answers.
      expect((await other.request('GET', '/health/live')).status).toBe(200);
      const spy = vi.spyOn(other.deps.db, 'executeQuery').mockRejectedValue(new Error('connection terminated'));
      try {
        const gone = expectProblem(await other.request('GET', '/health/ready'), 503, 'not_ready');
        expect(gone.checks.database.status).toBe('fail');
        expect(gone.detail).toMatch(/database/);
      } finally {
        spy.mockRestore();
      }
    } finally {
      await other.close();
    }
  }, 120_000);
});

describe('/metrics', () => {
  it('has runs, failures and duration per job, the backlog and the deposit lag in blocks', async () => {
    const user = await registerUser(server);
    await fund(server, user, 10_000_000n);
    await fundHotWallet(server, 10_000_000n);
    expect((await withdraw(server, user, { amount: 2, currency: 'USDC', address: freshAddress() })).status).toBe(200);
    await runJobsOnce(server.deps, server.app.log, [createDepositWatcherJob({ deposits: server.deps.depositWatching })]);
    const rpc = (method: string) =>
      fetch(server.deps.chain.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }),
      });
    for (let i = 0; i < 3; i++) await rpc('evm_mine');
    const text = (await server.request('GET', '/metrics')).text;
    expect(metricLine(text, 'peerpay_job_runs_total')).toContain('job="deposit-watcher"');
    expect(text).toContain('peerpay_job_failures_total');
    expect(text).toContain('peerpay_job_duration_seconds_bucket');
    expect(metricNumber(text, 'peerpay_withdrawals_pending')).toBe(1);
    expect(metricNumber(text, 'peerpay_outbox_unfinished')).toBeGreaterThanOrEqual(0);
    expect(metricNumber(text, 'peerpay_outbox_oldest_unfinished_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(metricNumber(text, 'peerpay_fiat_transfers_processing')).toBe(0);
    expect(metricNumber(text, 'peerpay_webhook_deliveries_pending')).toBe(0);
    expect(metricNumber(text, 'peerpay_deposit_lag_blocks')).toBe(3);
    expect(await accountIdOf(server, user)).toBeGreaterThan(0);
  });

  it('moves to METRICS_PORT when set: the main port answers 404 there, the metrics listener only /metrics', async () => {
    const metricsPort = await freePort();
    const moved = await startTestServer({ METRICS_PORT: String(metricsPort) });
    const listener = await bindListener({ port: metricsPort, host: '127.0.0.1', setting: 'METRICS_PORT' });
    try {
      expect(moved.deps.config.metricsPort).toBe(metricsPort);
      expectProblem(await moved.request('GET', '/metrics'), 404, 'not_found');
      listener.serve(metricsRequestHandler(moved.deps.metrics.registry));
      const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(metrics.status).toBe(200);
      expect(metrics.headers.get('content-type')).toContain('text/plain');
      expect(await metrics.text()).toContain('peerpay_withdrawals_pending');
      expect((await fetch(`http://127.0.0.1:${metricsPort}/health`)).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { method: 'POST' })).status).toBe(404);
    } finally {
      await listener.close();
      await moved.close();
    }
  }, 120_000);
});
