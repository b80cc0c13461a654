// The database connection drops in the middle of money-moving requests: peerpay runs as a real
// process on PostgreSQL behind a fault-injecting proxy, which cuts every connection after a seeded
// number of bytes; in a second phase an admin connection pg_terminate_backend()s the service's
// backends at a seeded moment. Each request must answer (no hang, no crash) with a success or a
// 5xx problem document that says the service is unavailable (never a bare 500 internal_error), and
// a retry with the same Idempotency-Key must apply it exactly once; a deposit made meanwhile is
// credited once. Then PostgreSQL refuses connections, then hangs, for a while: requests and /health
// answer 503 within seconds. The pool must recover by itself, without a restart.
import { expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { keccak256, toHex } from 'viem';
import { sql } from 'kysely';
import { openDatabase, type Db } from '../../src/db/database.js';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { createPostgresTestDatabase } from '../helpers/test-database.js';
import { startChaosChain } from './support/chaos-chain.js';
import { fundUsdc, registerChaosUser, saveCard, usdcBalanceMinor, type ChaosUser } from './support/chaos-accounts.js';
import { peerpayProcess } from './support/peerpay-process.js';
import { callOnce, callUntilAnswered, type CallOptions } from './support/retrying-client.js';
import { processTest, sleep } from './support/process-test.js';
import { recordChaos } from './support/report.js';
import { byProfile, randomFor } from './support/settings.js';
import { startTcpProxy } from './support/tcp-proxy.js';
import { findViolations, waitForWithdrawals, type IntendedOperation, type OperationKind } from './support/verify.js';

const { settings, cleanups } = processTest();

const FUNDED = 1_000_000_000n; // 1,000 USDC per user
const KINDS: readonly OperationKind[] = ['stablecoin_transfer', 'fiat_transfer', 'withdrawal'];

type Fault = 'reset' | 'terminate';

interface Step {
  kind: OperationKind;
  sender: ChaosUser;
  recipient: ChaosUser;
  cents: number;
  idempotencyKey: string;
}

function requestOf(step: Step): CallOptions {
  const amount = step.cents / 100;
  const base = { method: 'POST', key: step.sender.key, idempotencyKey: step.idempotencyKey };
  switch (step.kind) {
    case 'stablecoin_transfer':
      return { ...base, path: '/agent/transfer', body: { to: step.recipient.handle, amount, currency: 'USDC' } };
    case 'fiat_transfer':
      return {
        ...base,
        path: '/transfers',
        body: { recipientHandle: step.recipient.handle, amount, currency: 'USD', paymentMethod: 'instant' },
      };
    case 'withdrawal':
      return {
        ...base,
        path: '/stablecoin/withdraw',
        body: { amount, currency: 'USDC', address: privateKeyToAccount(keccak256(toHex(step.idempotencyKey))).address },
      };
  }
}

function idOf(body: any): unknown {
  return body?.transfer?.id ?? body?.transferId ?? body?.id ?? body?.withdrawalId;
}

/** The service's warnings about Idempotency-Keys it could not record or give back, for a failure's message. */
function keyWarnings(output: string): string {
  const lines = output.split('\n').filter((line) => line.includes('Idempotency-Key'));
  return lines.length === 0 ? 'no warning about Idempotency-Keys' : lines.slice(-10).join('\n');
}

const ADMIN_NAME = 'peerpay-chaos-admin';

/** The service's backends, ended from an admin connection as an operator or a failover would. */
async function terminateBackends(admin: Db): Promise<number> {
  // The filter runs first, in a CTE, and pg_terminate_backend only on its rows: in one WHERE clause
  // PostgreSQL may evaluate the call before the database test and end other databases' backends.
  const ended = await sql<{ pid: number }>`
    with ours as materialized (
      select pid from pg_stat_activity
       where datname = current_database() and application_name <> ${ADMIN_NAME} and pid <> pg_backend_pid())
    select pid from ours where pg_terminate_backend(pid)`.execute(admin);
  return ended.rows.length;
}

it(`money-moving requests cut off from PostgreSQL fail cleanly and apply exactly once when retried (seed ${settings.seed})`, async () => {
  const random = randomFor('dependency-faults-database');
  const phases: Record<string, number> = {};
  let phaseStarted = Date.now();
  const phaseEnds = (name: string) => {
    phases[name] = Date.now() - phaseStarted;
    phaseStarted = Date.now();
  };
  const plan = byProfile({ short: { reset: 4, terminate: 3, batch: 2 }, full: { reset: 30, terminate: 20, batch: 3 } });
  const database = (await createPostgresTestDatabase())!;
  cleanups.push(() => database.drop());
  const server = new URL(settings.databaseUrl);
  const proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 5432) });
  cleanups.push(() => proxy.close());
  const proxied = new URL(database.url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);

  const chain = await startChaosChain();
  cleanups.push(() => chain.stop());
  await chain.mint(chain.hotWallet, 'USDC', 1_000_000_000n);
  const hotWalletBaseline = { USDC: await chain.balanceOf(chain.hotWallet, 'USDC'), EURC: await chain.balanceOf(chain.hotWallet, 'EURC') };

  const service = await peerpayProcess('db-faults', {
    ...chain.env,
    DATABASE_URL: proxied.toString(),
    CHAIN_POLL_INTERVAL_MS: '300',
    JOB_INTERVAL_MS: '1000',
    RATE_LIMIT_DEFAULT_PER_MINUTE: '1000000',
  });
  cleanups.push(() => service.stop());
  await service.start();
  const baseUrl = () => service.baseUrl;
  // The test's own connection goes straight to PostgreSQL: it checks and terminates, never faulted.
  const adminUrl = new URL(database.url);
  adminUrl.searchParams.set('application_name', ADMIN_NAME);
  const admin = (await openDatabase({ url: adminUrl.toString(), poolSize: 2 })).db;
  cleanups.push(() => admin.destroy());

  const users: ChaosUser[] = [];
  for (let i = 0; i < 3; i++) users.push(await registerChaosUser(service.baseUrl, `dbfault${i}`));
  for (const user of users) await saveCard(service.baseUrl, user);
  await fundUsdc(service.baseUrl, chain, users, FUNDED);

  const violations: string[] = [];
  const operations: IntendedOperation[] = [];
  const steps: Step[] = [];
  const outcomes: Record<string, number> = {};
  const count = (outcome: string) => (outcomes[outcome] = (outcomes[outcome] ?? 0) + 1);
  let restarts = 0;
  let longestWaitMs = 0;
  // Each retry that waited out the lease, named by its kind, key and fault, so a failure says which path left its key claimed.
  const leaseWaits: string[] = [];
  let n = 0;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const nextStep = (kind: OperationKind): Step => {
    const sender = pick(users);
    let recipient = pick(users);
    while (recipient === sender) recipient = pick(users);
    const step = { kind, sender, recipient, cents: 100 + Math.floor(random() * 900), idempotencyKey: `dbfault-${settings.seed}-${n++}` };
    steps.push(step);
    return step;
  };

  /** Retries until final; a success is recorded as an operation, anything else is a violation. */
  async function settle(step: Step, label: string): Promise<void> {
    const started = Date.now();
    const retried: Record<string, number> = {};
    const onRetry = (seen: { status: number; body: any } | null) => {
      const what = seen ? `${seen.status} ${seen.body?.code ?? ''}`.trim() : 'no answer';
      retried[what] = (retried[what] ?? 0) + 1;
    };
    const answer = await callUntilAnswered(baseUrl, { ...requestOf(step), deadlineMs: 40_000, onRetry }).catch((error: Error) => ({
      status: 0,
      body: error.message,
      attempts: 0,
    }));
    longestWaitMs = Math.max(longestWaitMs, Date.now() - started);
    if (Date.now() - started >= 9_000) leaseWaits.push(`${label}: ${Date.now() - started} ms, retried after ${JSON.stringify(retried)}`);
    if (process.env.CHAOS_VERBOSE)
      console.log(`${label}: ${answer.status} after ${answer.attempts} attempts in ${Date.now() - started} ms`);
    if (answer.status >= 200 && answer.status < 300 && typeof idOf(answer.body) === 'string') {
      operations.push({ kind: step.kind, idempotencyKey: step.idempotencyKey, answeredId: idOf(answer.body) as string });
    } else {
      operations.push({ kind: step.kind, idempotencyKey: step.idempotencyKey });
      violations.push(`${label}: the retry of ${step.kind} ${step.idempotencyKey} ended ${answer.status} ${JSON.stringify(answer.body)}`);
    }
  }

  /** A first answer under a fault: a success, or a 5xx problem document that says "retry", never internal_error. */
  function judge(label: string, first: Awaited<ReturnType<typeof callOnce>>): void {
    if (first === null) {
      count('no answer');
      violations.push(`${label}: no answer within 20 s`);
      return;
    }
    if (first.status >= 200 && first.status < 300) {
      count(`${first.status}`);
      return;
    }
    count(`${first.status} ${first.body?.code}`);
    const problem =
      String(first.headers.get('content-type')).startsWith('application/problem+json') && typeof first.body?.code === 'string';
    if (!problem) violations.push(`${label}: ${first.status} without a problem document: ${JSON.stringify(first.body)}`);
    else if (first.status < 500) violations.push(`${label}: refused as the client's fault: ${first.status} ${first.body.code}`);
    else if (first.body.code === 'internal_error')
      violations.push(`${label}: 500 internal_error for a database outage: ${first.body.detail}`);
    else if (first.status === 503 && !first.headers.get('retry-after')) violations.push(`${label}: 503 without Retry-After`);
  }

  async function checkAlive(label: string): Promise<void> {
    if (service.isRunning()) return;
    violations.push(`${label}: the process died: ${service.output().slice(-3000)}`);
    await service.start();
    restarts++;
  }

  async function checkLedger(label: string): Promise<void> {
    for (const v of await checkLedgerInvariants(admin)) violations.push(`${label}: ledger ${v.invariant}: ${v.detail}`);
  }

  /** A batch of concurrent requests under one fault; each answered cleanly, then retried to the end. */
  async function underFault(fault: Fault): Promise<void> {
    const batch = Array.from({ length: plan.batch }, () => nextStep(pick(KINDS)));
    const size = batch.reduce((sum, step) => sum + profiles[step.kind].bytes, 0) / batch.length;
    const ms = Math.max(...batch.map((step) => profiles[step.kind].ms));
    let where: string;
    let firsts: Awaited<ReturnType<typeof callOnce>>[];
    if (fault === 'reset') {
      const after = Math.floor(random() * size);
      where = `reset after ${after} bytes`;
      void proxy.resetAfterBytes(after);
      firsts = await Promise.all(batch.map((step) => callOnce(service.baseUrl, requestOf(step))));
      proxy.disarm();
    } else {
      const delay = Math.floor(random() * ms);
      where = `backends terminated after ${delay} ms`;
      const pending = Promise.all(batch.map((step) => callOnce(service.baseUrl, requestOf(step))));
      await sleep(delay);
      await terminateBackends(admin);
      firsts = await pending;
    }
    const labels = batch.map((step) => `${step.kind} ${step.idempotencyKey} (${where})`);
    if (process.env.CHAOS_VERBOSE)
      batch.forEach((_, i) => console.log(`${labels[i]}: first answer ${firsts[i]?.status} ${firsts[i]?.body?.code ?? ''}`));
    await checkAlive(labels.join(', '));
    batch.forEach((_, i) => judge(labels[i]!, firsts[i]!));
    // Before any retry: whatever a refused request did was all or nothing.
    await checkLedger(where);
    await Promise.all(batch.map((step, i) => settle(step, labels[i]!)));
    await checkAlive(labels.join(', '));
    await checkLedger(where);
  }

  // How many bytes and milliseconds one request of each kind takes, so that faults land inside one.
  const profiles = {} as Record<OperationKind, { bytes: number; ms: number }>;
  // The second round counts: the first of each kind pays for cold caches and is several times slower.
  for (let round = 0; round < 2; round++) {
    for (const kind of KINDS) {
      const step = nextStep(kind);
      const bytes = proxy.bytes;
      const started = Date.now();
      await settle(step, 'warm-up');
      profiles[kind] = {
        bytes: Math.max(2000, Math.ceil((proxy.bytes - bytes) * 1.2)),
        ms: Math.max(20, Math.ceil((Date.now() - started) * 1.2)),
      };
    }
  }

  // A deposit lands on chain as the faults begin: the deposit watcher, cut off again and again,
  // must still credit it, once.
  const DEPOSIT = 7_000_000n;
  await chain.mint(users[0]!.depositAddress, 'USDC', DEPOSIT);

  const faults: Fault[] = [...Array<Fault>(plan.reset).fill('reset'), ...Array<Fault>(plan.terminate).fill('terminate')];
  phaseEnds('setup');
  for (const fault of faults) await underFault(fault);
  phaseEnds('cuts');

  // PostgreSQL unreachable for a while, the open connections cut: first refusing new ones (a
  // stopped server), then accepting and never answering (a host gone from the network). Every
  // request is refused within seconds with a problem, /health says so too, nothing moves, and the
  // retries succeed once it is back.
  const outageAnswerMs: Record<string, number> = {};
  for (const mode of ['refuse', 'blackhole'] as const) {
    proxy.mode = mode;
    proxy.resetAll();
    const outage = KINDS.map((kind) => nextStep(kind));
    const started = Date.now();
    const firsts = await Promise.all(outage.map((step) => callOnce(service.baseUrl, requestOf(step))));
    outageAnswerMs[mode] = Date.now() - started;
    outage.forEach((step, i) => {
      const first = firsts[i]!;
      judge(`${step.kind} ${step.idempotencyKey} (database ${mode})`, first);
      if (first?.status !== 503) violations.push(`${step.kind} with the database ${mode}: ${first?.status ?? 'no answer'}, expected 503`);
    });
    const health = await callOnce(service.baseUrl, { method: 'GET', path: '/health' });
    if (health?.status !== 503 || health.body?.code !== 'service_unavailable')
      violations.push(`/health with the database ${mode}: ${health?.status} ${JSON.stringify(health?.body)}`);
    await checkAlive(`database ${mode}`);
    proxy.mode = 'forward';
    // Connections that hung while it was away are cut as a TCP keepalive would find them dead.
    if (mode === 'blackhole') proxy.resetAll();
    await Promise.all(outage.map((step) => settle(step, `${step.kind} ${step.idempotencyKey} (after the database ${mode})`)));
    await checkLedger(`after the database ${mode}`);
  }

  phaseEnds('outages');
  // The pool heals by itself: with no fault, every request succeeds at the first attempt.
  for (const kind of KINDS) {
    const step = nextStep(kind);
    const answer = await callOnce(service.baseUrl, requestOf(step));
    if (answer?.status !== 200)
      violations.push(`after the faults, ${kind} answered ${answer?.status ?? 'nothing'} ${JSON.stringify(answer?.body)}`);
    await settle(step, 'after the faults');
  }
  // A retry that waits out the Idempotency-Key lease (10 s, decision 0004) met a claim that its
  // failed request left behind (one whose storing, answer or release the cut hid).
  if (leaseWaits.length > 0)
    violations.push(
      `${leaseWaits.length} retries waited out the Idempotency-Key lease, so a failed request left its key claimed: ${leaseWaits.join('; ')}; ` +
        `the service said: ${keyWarnings(service.output())}`,
    );

  phaseEnds('healed');
  // Well inside the outbox lease (60 s): an entry whose lease a cut left standing would show here.
  await waitForWithdrawals(admin, 30_000);
  phaseEnds('withdrawals sent');
  violations.push(...(await findViolations(admin, chain, operations, hotWalletBaseline)));

  // Balances moved once: each user's USDC is the funding less what they sent, plus what reached them.
  const rows = await admin.selectFrom('stablecoin_transfers').select(['idempotency_key', 'fee']).execute();
  const feeOf = new Map(rows.map((row) => [row.idempotency_key, row.fee]));
  const creditDeadline = Date.now() + 30_000;
  for (const user of users) {
    let expected = FUNDED + (user === users[0] ? DEPOSIT : 0n);
    for (const step of steps) {
      const minor = BigInt(step.cents) * 10_000n;
      if (step.kind !== 'fiat_transfer' && step.sender === user) expected -= minor;
      if (step.kind === 'stablecoin_transfer' && step.recipient === user) expected += minor - (feeOf.get(step.idempotencyKey) ?? 0n);
    }
    let actual = await usdcBalanceMinor(service.baseUrl, user);
    // The deposit is credited by the next watcher round that succeeds.
    while (actual < expected && Date.now() < creditDeadline) {
      await sleep(200);
      actual = await usdcBalanceMinor(service.baseUrl, user);
    }
    if (actual !== expected) violations.push(`${user.handle}: USDC ${actual}, expected ${expected} from the operations asked for`);
  }
  // And each fiat transfer credited its recipient once.
  const fiatRows = await admin
    .selectFrom('fiat_transfers')
    .select(['recipient_account_id', 'amount'])
    .where('status', '<>', 'failed')
    .execute();
  const fiatTotal = fiatRows.reduce((sum, row) => sum + row.amount, 0n);
  const fiatAsked = steps.filter((step) => step.kind === 'fiat_transfer').reduce((sum, step) => sum + BigInt(step.cents), 0n);
  if (fiatTotal !== fiatAsked) violations.push(`fiat transfers credit ${fiatTotal} cents, clients asked for ${fiatAsked}`);
  const credited = await sql<{ total: string }>`
    select coalesce(sum(balance + pending_credits), 0)::text as total from ledger_accounts where code like 'user:%:USD'`.execute(admin);
  if (BigInt(credited.rows[0]!.total) !== fiatAsked)
    violations.push(`users hold ${credited.rows[0]!.total} USD cents in the ledger, clients sent ${fiatAsked}`);

  phaseEnds('balances');
  recordChaos('dependency-faults-database', { operations: operations.length, restarts, violations: violations.length });
  console.log(
    `dependency-faults-database (seed ${settings.seed}): ${operations.length} operations, ${faults.length} faults ` +
      `(${plan.reset} proxy resets cutting ${proxy.resets} connections, ${plan.terminate} pg_terminate_backend rounds, ${plan.batch} requests each, ` +
      `then the database refusing and hung, answered in ${JSON.stringify(outageAnswerMs)} ms); first answers ${JSON.stringify(outcomes)}; ` +
      `longest wait for a final answer ${longestWaitMs} ms (${leaseWaits.length} retries waited out the Idempotency-Key lease); request sizes ${JSON.stringify(profiles)}; phases (ms) ${JSON.stringify(phases)}`,
  );
  expect(violations, `seed ${settings.seed}; replay with CHAOS_SEED=${settings.seed}`).toEqual([]);
  expect(restarts).toBe(0);
});
