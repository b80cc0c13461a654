// A fleet with real parts: three peerpay processes (`node dist/main.js`) on one PostgreSQL database
// (fresh for the run) and the local Redis (a key prefix of the run's own), behind HAProxy run with
// deploy/haproxy.cfg as shipped. Clients send a mixed load through the balancer (stablecoin and card
// transfers and withdrawals with Idempotency-Keys, balance reads), resending what they got no final
// answer to with the same key, while every process is restarted in turn with SIGTERM (it drains:
// not ready at once, still answering for DRAIN_DELAY_MS, then exit 0) and then one is SIGKILLed.
// Afterwards: every request answered, none done twice, the ledger balances and the chain holds what
// the books say; and a client allowed N account checks a minute gets N across the three, not 3N.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { keccak256, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { Redis } from 'ioredis';
import { openDatabase } from '../../src/db/database.js';
import { createPostgresTestDatabase } from '../helpers/test-database.js';
import { startChaosChain } from './support/chaos-chain.js';
import { fundUsdc, registerChaosUser, saveCard, type ChaosUser } from './support/chaos-accounts.js';
import { startBalancer } from './support/haproxy.js';
import { peerpayProcess, type PeerpayProcess } from './support/peerpay-process.js';
import { callOnce, callUntilAnswered } from './support/retrying-client.js';
import { processTest, sleep } from './support/process-test.js';
import { recordChaos } from './support/report.js';
import { byProfile, randomFor } from './support/settings.js';
import { findViolations, waitForWithdrawals, type IntendedOperation, type OperationKind } from './support/verify.js';

const { settings, cleanups } = processTest();

const REDIS_URL = process.env.FLEET_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Long enough for HAProxy (checks every 1 s, down after 2 failures) to stop sending a draining process requests. */
const DRAIN_DELAY_MS = 4000;
const CHECKS_PER_MINUTE = 25;
const LOGIN_MAX_FAILURES = 4;
const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};

/** Opens an MCP session through `url` and sends `calls` tools/list in it; the status of each. */
async function mcpSession(url: string, key: string, calls: number): Promise<number[]> {
  const headers = { ...MCP_HEADERS, authorization: `Bearer ${key}` };
  const initialize = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fleet-test', version: '1.0.0' } },
    }),
  });
  await initialize.text();
  const session = initialize.headers.get('mcp-session-id');
  if (!session) return [initialize.status];
  const inSession = { ...headers, 'mcp-session-id': session };
  const statuses: number[] = [];
  const initialized = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: inSession,
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await initialized.text();
  statuses.push(initialized.status === 202 ? 200 : initialized.status);
  for (let id = 1; id <= calls; id++) {
    const answer = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: inSession,
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' }),
    });
    await answer.text();
    statuses.push(answer.status);
  }
  return statuses;
}

it(`three processes behind HAProxy: rolling restart and SIGKILL lose and double nothing, limits are shared (seed ${settings.seed})`, async () => {
  const random = randomFor('fleet');
  const t0 = Date.now();
  const phases: string[] = [];
  const mark = (name: string) => phases.push(`${name} ${Date.now() - t0} ms`);
  const plan = byProfile({ short: { clients: 6, users: 6 }, full: { clients: 12, users: 12 } });

  const database = (await createPostgresTestDatabase())!;
  cleanups.push(() => database.drop());
  const chain = await startChaosChain();
  cleanups.push(() => chain.stop());
  await chain.mint(chain.hotWallet, 'USDC', 1_000_000_000n);
  const hotWalletBaseline = { USDC: await chain.balanceOf(chain.hotWallet, 'USDC'), EURC: await chain.balanceOf(chain.hotWallet, 'EURC') };
  const redisKeyPrefix = `peerpay-fleet-test:${randomUUID()}:`;
  cleanups.push(async () => {
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${redisKeyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  const env = {
    ...chain.env,
    DATABASE_URL: database.url,
    REDIS_URL,
    REDIS_KEY_PREFIX: redisKeyPrefix,
    // The balancer's address: per-IP limits count the client named in X-Forwarded-For.
    TRUST_PROXY: '127.0.0.1',
    DRAIN_DELAY_MS: String(DRAIN_DELAY_MS),
    CHAIN_POLL_INTERVAL_MS: '200',
    JOB_INTERVAL_MS: '500',
    RATE_LIMIT_DEFAULT_PER_MINUTE: '1000000',
    RATE_LIMIT_CHECK_PER_MINUTE: String(CHECKS_PER_MINUTE),
    LOGIN_MAX_FAILURES: String(LOGIN_MAX_FAILURES),
  };
  const processes: PeerpayProcess[] = [];
  for (let i = 1; i <= 3; i++) {
    const p = await peerpayProcess(`p${i}`, env);
    cleanups.push(() => p.stop());
    processes.push(p);
  }
  await Promise.all(processes.map((p) => p.start()));
  const balancer = await startBalancer(processes.map((p) => new URL(p.baseUrl).host));
  cleanups.push(() => balancer.stop());
  // FLEET_LOGS=dir keeps every process's output (and HAProxy's) there, to read after a failure.
  const logDir = process.env.FLEET_LOGS;
  if (logDir) {
    cleanups.push(async () => {
      fs.mkdirSync(logDir, { recursive: true });
      for (const p of processes) fs.writeFileSync(path.join(logDir, `${p.name}.log`), p.output());
      fs.writeFileSync(path.join(logDir, 'haproxy.log'), balancer.output());
    });
  }
  for (const name of ['p1', 'p2', 'p3']) await balancer.waitFor(name, 'UP');
  mark('fleet up');
  const via = () => balancer.url;

  const users: ChaosUser[] = [];
  for (let i = 0; i < plan.users; i++) users.push(await registerChaosUser(balancer.url, `fleet${i}`));
  for (const user of users) await saveCard(balancer.url, user);
  await fundUsdc(balancer.url, chain, users, 1_000_000_000n);
  mark('users funded');

  const operations: IntendedOperation[] = [];
  const failures: string[] = [];
  let phase = 'load';
  const resentIn = new Map<string, number>();
  /** Why a request had to be sent again, by phase: the status (and code) or `no answer`. */
  const retriedBecause = new Map<string, number>();
  let reads = 0;
  let running = true;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

  async function runClient(client: number): Promise<void> {
    for (let n = 0; running; n++) {
      const sender = users[client % users.length]!;
      let recipient = pick(users);
      while (recipient === sender) recipient = pick(users);
      const kind = pick<OperationKind | 'read'>(['stablecoin_transfer', 'stablecoin_transfer', 'fiat_transfer', 'withdrawal', 'read']);
      const cents = 50 + Math.floor(random() * 451);
      const idempotencyKey = `fleet-${settings.seed}-${client}-${n}`;
      const request =
        kind === 'read'
          ? { method: 'GET', path: '/stablecoin/balance' }
          : kind === 'stablecoin_transfer'
            ? { method: 'POST', path: '/agent/transfer', body: { to: recipient.handle, amount: cents / 100, currency: 'USDC' } }
            : kind === 'fiat_transfer'
              ? {
                  method: 'POST',
                  path: '/transfers',
                  body: { recipientHandle: recipient.handle, amount: cents / 100, currency: 'USD', paymentMethod: 'instant' },
                }
              : {
                  method: 'POST',
                  path: '/stablecoin/withdraw',
                  body: {
                    amount: (cents + 100) / 100,
                    currency: 'USDC',
                    address: privateKeyToAccount(keccak256(toHex(idempotencyKey))).address,
                  },
                };
      const sentIn = phase;
      const answer = await callUntilAnswered(via, {
        ...request,
        key: sender.key,
        ...(kind === 'read' ? {} : { idempotencyKey }),
        deadlineMs: 90_000,
        onRetry: (seen) => {
          const why = `${sentIn}: ${seen ? `${seen.status} ${seen.body?.code ?? ''}`.trim() : 'no answer'}`;
          retriedBecause.set(why, (retriedBecause.get(why) ?? 0) + 1);
        },
      });
      if (answer.attempts > 1) resentIn.set(sentIn, (resentIn.get(sentIn) ?? 0) + 1);
      if (answer.status < 200 || answer.status >= 300) {
        failures.push(`${kind} ${idempotencyKey}: ${answer.status} ${JSON.stringify(answer.body)}`);
      } else if (kind === 'read') {
        reads++;
      } else {
        const answeredId = answer.body?.transfer?.id ?? answer.body?.transferId ?? answer.body?.withdrawalId;
        if (typeof answeredId !== 'string') failures.push(`${kind} ${idempotencyKey}: a 2xx answer without an id`);
        operations.push({ kind, idempotencyKey, answeredId });
      }
    }
  }

  // Deposits keep arriving on chain throughout: the deposit watcher moves between processes.
  let deposited = 0;
  let mintsReverted = 0;
  const depositor = (async () => {
    while (running) {
      // A mint can revert when a sweep empties the address between its gas estimate and its
      // block (the first token stored costs more gas): nothing arrives then, so it does not count.
      const minted = await chain.mint(pick(users).depositAddress, 'USDC', 3_000_000n).then(
        () => true,
        () => false,
      );
      if (minted) deposited++;
      else mintsReverted++;
      await sleep(700);
    }
  })();

  const drains: string[] = [];
  const fleetOps = (async () => {
    await sleep(1500);
    phase = 'rolling restart';
    for (const [i, p] of processes.entries()) {
      const name = `p${i + 1}`;
      const exitCode = p.stop();
      // At once: not ready, naming why; meanwhile it still answers (the balancer may not know yet).
      await sleep(300);
      const ready = await callOnce(p.baseUrl, { method: 'GET', path: '/health/ready' });
      const live = await callOnce(p.baseUrl, { method: 'GET', path: '/health/live' });
      if (ready?.status !== 503 || ready.body?.checks?.draining?.status !== 'fail')
        drains.push(`${name}: /health/ready while draining answered ${ready?.status} ${JSON.stringify(ready?.body)}`);
      if (live?.status !== 200) drains.push(`${name}: /health/live while draining answered ${live?.status}`);
      await balancer.waitFor(name, 'DOWN', DRAIN_DELAY_MS);
      const code = await exitCode;
      if (code !== 0) drains.push(`${name}: exit code ${code} after SIGTERM`);
      await p.start();
      await balancer.waitFor(name, 'UP');
    }
    mark('rolling restart done');
    phase = 'sigkill';
    await sleep(500);
    const victim = pick(processes);
    await victim.kill();
    await sleep(1000 + Math.floor(random() * 1000));
    await victim.start();
    await balancer.waitFor(victim.name, 'UP');
    mark(`${victim.name} killed and back`);
    phase = 'load';
    await sleep(1000);
  })();
  await Promise.all([
    fleetOps.finally(() => (running = false)),
    ...Array.from({ length: plan.clients }, (_, client) => runClient(client)),
    depositor,
  ]);
  mark('load done');

  // N account checks a minute per client address, whichever process answers (round robin over three).
  const checks: number[] = [];
  for (let i = 0; i < CHECKS_PER_MINUTE + 15; i++) {
    const answer = await callOnce(balancer.url, { method: 'GET', path: `/agents/check?handle=${users[0]!.handle}` });
    checks.push(answer?.status ?? 0);
  }
  const allowed = checks.filter((s) => s === 200).length;
  const limited = checks.filter((s) => s === 429).length;

  // An MCP session lives in the process that opened it: HAProxy sends each of its requests there.
  const mcpStatuses = await mcpSession(balancer.url, users[0]!.key, 6);
  // The sign-in lock-out (kept in PostgreSQL) counts attempts across the three processes.
  const signIns: number[] = [];
  for (let i = 0; i < LOGIN_MAX_FAILURES + 2; i++) {
    const answer = await callOnce(balancer.url, {
      method: 'POST',
      path: '/agent/register',
      body: { email: users[1]!.email, password: `wrong password ${i}`, name: 'Guess' },
    });
    signIns.push(answer?.status ?? 0);
  }

  // Every count is under the run's prefix, one key per group of routes and client.
  const redis = new Redis(REDIS_URL);
  const redisKeys = (await redis.keys(`${redisKeyPrefix}*`)).map((key) => key.slice(redisKeyPrefix.length));
  const checksCounted = await redis.get(`${redisKeyPrefix}ratelimit:check:ip:127.0.0.1`);
  redis.disconnect();

  const db = (await openDatabase({ url: database.url, poolSize: 2 })).db;
  await waitForWithdrawals(db);
  // Every deposit credited (the custody check below would see one missing as the chain holding more).
  const expectedDeposits = users.length + deposited;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const row = await db
      .selectFrom('chain_deposits')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(row.n) >= expectedDeposits || Date.now() > deadline) {
      console.log(`fleet: ${row.n} deposits credited of ${expectedDeposits}`);
      break;
    }
    await sleep(200);
  }
  mark('settled');
  const violations = [...failures, ...drains, ...(await findViolations(db, chain, operations, hotWalletBaseline))];
  await db.destroy();
  if (allowed !== CHECKS_PER_MINUTE || limited !== 15)
    violations.push(`shared limit: ${allowed} allowed and ${limited} limited of ${checks.length}, expected ${CHECKS_PER_MINUTE} and 15`);

  const strayKeys = redisKeys.filter((key) => !/^ratelimit:(account:\d+|ip:[\d.]+|check:ip:[\d.]+|register:ip:[\d.]+)$/.test(key));
  if (strayKeys.length > 0 || !redisKeys.includes('ratelimit:register:ip:127.0.0.1'))
    violations.push(`Redis keys under the run's prefix: ${redisKeys.join(', ')}`);
  if (checksCounted !== String(checks.length)) violations.push(`Redis counted ${checksCounted} account checks, ${checks.length} were sent`);
  if (mcpStatuses.some((status) => status !== 200)) violations.push(`MCP session through the balancer: ${mcpStatuses.join(', ')}`);
  const expectedSignIns = [...Array<number>(LOGIN_MAX_FAILURES).fill(401), 429, 429];
  if (signIns.join() !== expectedSignIns.join()) violations.push(`sign-in lock-out across processes: ${signIns.join(', ')}`);

  recordChaos('fleet', { operations: operations.length + reads, kills: 1, restarts: 4, violations: violations.length });
  console.log(
    `fleet (seed ${settings.seed}): ${operations.length} money operations and ${reads} reads through HAProxy, ${deposited} deposits (${mintsReverted} mints reverted); ` +
      `requests resent by clients: ${JSON.stringify(Object.fromEntries(resentIn))}, because ${JSON.stringify(Object.fromEntries(retriedBecause))}; shared limit ${allowed}/${checks.length}; ${phases.join(', ')}`,
  );
  expect(violations, `seed ${settings.seed}; replay with CHAOS_SEED=${settings.seed}`).toEqual([]);
  expect(operations.length).toBeGreaterThan(0);
});
