// Several processes, one database: three peerpay processes on one PostgreSQL database and one chain,
// clients spread across them. A hot sender pays many recipients at once and many senders pay one
// recipient, while deposits arrive, withdrawals leave and bank debits wait to settle. No overdraft, no
// lost or doubled transfer, every deposit credited once, every withdrawal sent once, every bank debit
// settled once though all three processes' jobs race for it, and never two deposit watchers at a time.
import { expect, it } from 'vitest';
import pg from 'pg';
import { privateKeyToAccount } from 'viem/accounts';
import { keccak256, toHex } from 'viem';
import { openDatabase } from '../../src/db/database.js';
import { DEPOSIT_WATCHER_LOCK_KEY } from '../../src/stablecoin/deposits/scan-lock.js';
import { createPostgresTestDatabase } from '../helpers/test-database.js';
import { startChaosChain } from './support/chaos-chain.js';
import { fiatAvailableMinor, fundUsdc, registerChaosUser, saveCard, usdcBalanceMinor, type ChaosUser } from './support/chaos-accounts.js';
import { peerpayProcess, type PeerpayProcess } from './support/peerpay-process.js';
import { callUntilAnswered } from './support/retrying-client.js';
import { processTest } from './support/process-test.js';
import { recordChaos } from './support/report.js';
import { byProfile, randomFor } from './support/settings.js';
import { findViolations, waitForWithdrawals, type IntendedOperation } from './support/verify.js';

const { settings, cleanups } = processTest();

const USDC = 1_000_000n;
const FEE_BPS = 149n;
const netOf = (gross: bigint) => gross - (gross * FEE_BPS) / 10_000n;

/** Samples pg_locks: how many backends hold the deposit watcher's advisory lock at one moment. */
async function watchScanLock(
  url: string,
  until: () => boolean,
): Promise<{ samples: number; held: number; maxHolders: number; holders: Set<number> }> {
  const key = BigInt.asUintN(64, DEPOSIT_WATCHER_LOCK_KEY);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const result = { samples: 0, held: 0, maxHolders: 0, holders: new Set<number>() };
  try {
    while (!until()) {
      const rows = await client.query<{ pid: number }>(
        `select pid from pg_locks where locktype = 'advisory' and granted and database = (select oid from pg_database where datname = current_database())
            and classid = $1 and objid = $2 and objsubid = 1`,
        [String(key >> 32n), String(key & 0xffffffffn)],
      );
      result.samples++;
      if (rows.rows.length > 0) result.held++;
      result.maxHolders = Math.max(result.maxHolders, rows.rows.length);
      for (const row of rows.rows) result.holders.add(row.pid);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    await client.end();
  }
  return result;
}

it(`three processes on one database: no overdraft, nothing lost or doubled, one chain scanner (seed ${settings.seed})`, async () => {
  const random = randomFor('multi-process');
  const plan = byProfile({
    short: {
      hotRecipients: 12,
      hotAttempts: 40,
      hotBalanceUsdc: 25n,
      fanIn: 8,
      fanInEach: 3,
      deposits: 6,
      withdrawals: 6,
      achSenders: 4,
      achEach: 2,
    },
    full: {
      hotRecipients: 40,
      hotAttempts: 200,
      hotBalanceUsdc: 120n,
      fanIn: 30,
      fanInEach: 6,
      deposits: 30,
      withdrawals: 30,
      achSenders: 12,
      achEach: 3,
    },
  });
  const database = (await createPostgresTestDatabase())!;
  cleanups.push(() => database.drop());
  const chain = await startChaosChain();
  cleanups.push(() => chain.stop());
  await chain.mint(chain.hotWallet, 'USDC', 1_000_000_000n);
  const hotWalletBaseline = { USDC: await chain.balanceOf(chain.hotWallet, 'USDC'), EURC: await chain.balanceOf(chain.hotWallet, 'EURC') };

  const env = {
    ...chain.env,
    DATABASE_URL: database.url,
    CHAIN_POLL_INTERVAL_MS: '100',
    JOB_INTERVAL_MS: '300',
    RATE_LIMIT_DEFAULT_PER_MINUTE: '1000000',
  };
  const processes: PeerpayProcess[] = [];
  for (let i = 0; i < 3; i++) {
    const p = await peerpayProcess(`multi${i}`, env);
    cleanups.push(() => p.stop());
    processes.push(p);
  }
  // Started together, so that their migrations race on the one empty database as a rolling deploy's would.
  await Promise.all(processes.map((p) => p.start()));
  const anyProcess = () => processes[Math.floor(random() * processes.length)]!.baseUrl;
  const first = processes[0]!.baseUrl;

  const hot = await registerChaosUser(first, 'hot');
  const sink = await registerChaosUser(first, 'sink');
  const recipients: ChaosUser[] = [];
  for (let i = 0; i < plan.hotRecipients; i++) recipients.push(await registerChaosUser(anyProcess(), `to${i}`));
  const senders: ChaosUser[] = [];
  for (let i = 0; i < plan.fanIn; i++) senders.push(await registerChaosUser(anyProcess(), `from${i}`));
  await fundUsdc(first, chain, [hot], plan.hotBalanceUsdc * USDC);
  await fundUsdc(first, chain, senders, 100n * USDC);
  const achSenders = senders.slice(0, plan.achSenders);
  for (const sender of achSenders) await saveCard(anyProcess(), sender, '/agent/bank-debit-link');

  let done = false;
  const lockWatch = watchScanLock(database.url, () => done);
  const operations: IntendedOperation[] = [];
  const failures: string[] = [];

  // One sender to many: each attempt is 1 USDC, so exactly hotBalanceUsdc of them can succeed.
  const hotAttempts = Array.from({ length: plan.hotAttempts }, (_, n) => ({
    n,
    to: recipients[n % recipients.length]!,
    via: anyProcess(),
  }));
  let hotSucceeded = 0;
  let hotRefused = 0;
  const hotRun = Promise.all(
    hotAttempts.map(async ({ n, to, via }) => {
      const idempotencyKey = `hot-${settings.seed}-${n}`;
      const answer = await callUntilAnswered(() => via, {
        method: 'POST',
        path: '/agent/transfer',
        key: hot.key,
        idempotencyKey,
        body: { to: to.handle, amount: 1, currency: 'USDC' },
      });
      if (answer.status === 200) {
        hotSucceeded++;
        operations.push({ kind: 'stablecoin_transfer', idempotencyKey, answeredId: answer.body.transferId });
      } else if (answer.status === 400 && answer.body?.code === 'insufficient_balance') hotRefused++;
      else failures.push(`hot transfer ${n}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }),
  );

  // Many senders to one recipient, each through any process.
  const fanIn = Promise.all(
    senders.flatMap((sender, s) =>
      Array.from({ length: plan.fanInEach }, async (_, n) => {
        const idempotencyKey = `fanin-${settings.seed}-${s}-${n}`;
        const cents = 1 + Math.floor(random() * 300);
        const answer = await callUntilAnswered(() => anyProcess(), {
          method: 'POST',
          path: '/agent/transfer',
          key: sender.key,
          idempotencyKey,
          body: { to: sink.handle, amount: cents / 100, currency: 'USDC' },
        });
        if (answer.status === 200) operations.push({ kind: 'stablecoin_transfer', idempotencyKey, answeredId: answer.body.transferId });
        else failures.push(`fan-in ${idempotencyKey}: ${answer.status} ${JSON.stringify(answer.body)}`);
        return answer.status === 200 ? BigInt(cents) * 10_000n : 0n;
      }),
    ),
  );

  // Deposits arriving on chain while the three watchers compete, and withdrawals to fresh addresses.
  const depositors = senders.slice(0, Math.min(plan.deposits, senders.length));
  const depositsBefore = new Map<string, bigint>();
  const deposits = (async () => {
    for (const user of depositors) {
      depositsBefore.set(user.handle, 7n * USDC);
      await chain.mint(user.depositAddress, 'USDC', 7n * USDC);
    }
  })();
  const withdrawals = Promise.all(
    Array.from({ length: plan.withdrawals }, async (_, n) => {
      const user = senders[n % senders.length]!;
      const idempotencyKey = `withdraw-${settings.seed}-${n}`;
      const address = privateKeyToAccount(keccak256(toHex(idempotencyKey))).address;
      const answer = await callUntilAnswered(() => anyProcess(), {
        method: 'POST',
        path: '/stablecoin/withdraw',
        key: user.key,
        idempotencyKey,
        body: { amount: 2, currency: 'USDC', address },
      });
      if (answer.status === 200) operations.push({ kind: 'withdrawal', idempotencyKey, answeredId: answer.body.withdrawalId });
      else failures.push(`withdrawal ${idempotencyKey}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }),
  );

  // Bank debits (ACH) to the same recipient, settled later by the ACH job of whichever process claims them.
  const achRun = Promise.all(
    achSenders.flatMap((sender, s) =>
      Array.from({ length: plan.achEach }, async (_, n) => {
        const idempotencyKey = `ach-${settings.seed}-${s}-${n}`;
        const cents = 50 + Math.floor(random() * 4951); // at least the minimum charge (DESIGN §15)
        const body = { recipientHandle: sink.handle, amount: cents / 100, currency: 'USD', paymentMethod: 'ach' };
        const answer = await callUntilAnswered(() => anyProcess(), {
          method: 'POST',
          path: '/transfers',
          key: sender.key,
          idempotencyKey,
          body,
        });
        if (answer.status >= 200 && answer.status < 300) {
          operations.push({ kind: 'fiat_transfer', idempotencyKey, answeredId: answer.body.transfer?.id });
          return BigInt(cents);
        }
        failures.push(`ach ${idempotencyKey}: ${answer.status} ${JSON.stringify(answer.body)}`);
        return 0n;
      }),
    ),
  );

  const [, fanInAmounts, , , achAmounts] = await Promise.all([hotRun, fanIn, deposits, withdrawals, achRun]);
  const db = (await openDatabase({ url: database.url, poolSize: 2 })).db;
  await waitForWithdrawals(db);
  // The sandbox clock (one, in the database) moved past every ACH settlement date by all three
  // processes at once; each then runs its jobs, so three ACH settlement jobs race for the same items.
  const advanced = await Promise.all(
    processes.map((p) => callUntilAnswered(() => p.baseUrl, { method: 'POST', path: '/test-helpers/clock/advance', body: { days: 10 } })),
  );
  for (const answer of advanced) if (answer.status !== 200) failures.push(`clock advance: ${answer.status} ${JSON.stringify(answer.body)}`);
  const achDeadline = Date.now() + 30_000;
  for (;;) {
    const open = await db
      .selectFrom('fiat_transfers')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('payment_method', '=', 'ach')
      .where('status', '!=', 'completed')
      .executeTakeFirstOrThrow();
    if (Number(open.n) === 0) break;
    if (Date.now() > achDeadline) {
      failures.push(`${open.n} ACH transfers not completed 30 s after the clock passed their settlement date`);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // Every deposit credited once: wait until the chain_deposits rows for the depositors are there.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const credited = await db
      .selectFrom('chain_deposits')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(credited.n) >= 1 + senders.length + depositors.length) break;
    if (Date.now() > deadline) throw new Error(`seed ${settings.seed}: deposits not all credited (${credited.n})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // A few more watcher rounds on every process: nothing may be credited twice.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  done = true;
  const lock = await lockWatch;

  const violations = [...failures, ...(await findViolations(db, chain, operations, hotWalletBaseline))];
  const depositRows = await db
    .selectFrom('chain_deposits')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(depositRows.n) !== 1 + senders.length + depositors.length)
    violations.push(`${depositRows.n} deposits credited, ${1 + senders.length + depositors.length} made`);
  if (hotSucceeded !== Number(plan.hotBalanceUsdc))
    violations.push(`hot sender: ${hotSucceeded} transfers of 1 USDC succeeded from a balance of ${plan.hotBalanceUsdc}`);
  if (hotSucceeded + hotRefused !== plan.hotAttempts)
    violations.push(`hot sender: ${plan.hotAttempts - hotSucceeded - hotRefused} attempts neither succeeded nor were refused`);
  if ((await usdcBalanceMinor(first, hot)) !== 0n) violations.push('hot sender does not end at exactly zero');
  const sinkExpected = fanInAmounts.reduce((sum, gross) => sum + netOf(gross), 0n);
  const sinkBalance = await usdcBalanceMinor(first, sink);
  if (sinkBalance !== sinkExpected) violations.push(`one recipient of many: ${sinkBalance}, expected ${sinkExpected}`);
  const achExpected = achAmounts.reduce((sum, cents) => sum + cents, 0n);
  const achReceived = await fiatAvailableMinor(first, sink, 'USD');
  if (achReceived !== achExpected)
    violations.push(`ACH to one recipient: ${achReceived} cents available, expected ${achExpected} (each settled once)`);
  for (const user of depositors) {
    const sent = await chain.transfersTo(user.depositAddress, 'USDC');
    if (sent.length !== 2) violations.push(`${user.handle}: ${sent.length} deposits on chain, expected 2`);
  }
  if (lock.maxHolders > 1) violations.push(`${lock.maxHolders} processes held the deposit watcher lock at once`);
  if (lock.held === 0) violations.push(`the deposit watcher lock was never seen held in ${lock.samples} samples: the check proved nothing`);
  await db.destroy();

  const count = operations.length + hotRefused + advanced.length;
  recordChaos('multi-process', { operations: count, violations: violations.length });
  console.log(
    `multi-process (seed ${settings.seed}): ${count} requests over 3 processes; hot sender ${hotSucceeded} sent, ${hotRefused} refused; ` +
      `scan lock held in ${lock.held}/${lock.samples} samples by ${lock.holders.size} backends over time, never by two at once; ${achAmounts.length} bank debits settled once each`,
  );
  expect(violations, `seed ${settings.seed}; replay with CHAOS_SEED=${settings.seed}`).toEqual([]);
});
