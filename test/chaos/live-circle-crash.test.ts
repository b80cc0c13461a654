// Crash recovery with WALLET_PROVIDER=circle (DESIGN §19): peerpay runs as a real process on
// PostgreSQL with the Circle stand-in (in this test's process, executing every transaction on the
// chaos chain) holding the users' and the treasury's wallets. Deposits arrive with their
// notifications duplicated and reordered (held back, then sent in reverse); the process is
// SIGKILLed at seeded moments while deposits are being swept to the treasury and withdrawals sent
// as Circle transfers, and started again; clients resend every request whose answer they did not
// see. Circle keeps working while peerpay is down (its notifications to the dead process are sent
// again later). Afterwards: each withdrawal exists once and reached the chain once, every deposit
// was credited once, the ledger balances, and the books equal what the wallets hold on chain.
import { expect, it } from 'vitest';
import { keccak256, toHex, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { openDatabase } from '../../src/db/database.js';
import { startCircleStandIn } from '../fakes/circle/index.js';
import { circleEnv, LIVE_CIRCLE_API_KEY, LIVE_CIRCLE_ENTITY_SECRET } from '../helpers/live-mode.js';
import { createPostgresTestDatabase } from '../helpers/test-database.js';
import { registerChaosUser, usdcBalanceMinor, type ChaosUser } from './support/chaos-accounts.js';
import { startChaosChain } from './support/chaos-chain.js';
import { peerpayProcess } from './support/peerpay-process.js';
import { processTest, sleep } from './support/process-test.js';
import { recordChaos } from './support/report.js';
import { callUntilAnswered } from './support/retrying-client.js';
import { byProfile, randomFor } from './support/settings.js';
import { findViolations, waitForWithdrawals, type IntendedOperation } from './support/verify.js';

const { settings, cleanups } = processTest();
const DEPOSIT = 50_000_000n;

it(`circle: deposits, sweeps and withdrawals happen exactly once across SIGKILLs (seed ${settings.seed})`, async () => {
  const random = randomFor('live-circle-crash');
  const plan = byProfile({ short: { users: 4, withdrawalsPerUser: 3, kills: 3 }, full: { users: 8, withdrawalsPerUser: 12, kills: 8 } });
  const database = (await createPostgresTestDatabase())!;
  cleanups.push(() => database.drop());
  const chain = await startChaosChain();
  cleanups.push(() => chain.stop());
  const tokens = { USDC: chain.env.USDC_ADDRESS as Address, EURC: chain.env.EURC_ADDRESS as Address };
  const circle = await startCircleStandIn({
    apiKey: LIVE_CIRCLE_API_KEY,
    entitySecret: LIVE_CIRCLE_ENTITY_SECRET,
    rpcUrl: chain.rpcUrl,
    chainId: Number(chain.env.CHAIN_ID),
    tokens,
  });
  cleanups.push(() => circle.close());
  const service = await peerpayProcess('circle-crash', {
    ...chain.env,
    ...circleEnv(circle.apiBase),
    DATABASE_URL: database.url,
    CHAIN_POLL_INTERVAL_MS: '200',
    JOB_INTERVAL_MS: '300',
    RATE_LIMIT_DEFAULT_PER_MINUTE: '1000000',
  });
  cleanups.push(() => service.stop());
  await service.start();
  circle.setNotificationUrl(`${service.baseUrl}/webhooks/circle`);
  // Circle works on while peerpay is down: what it sends a dead process is sent again on a later sync.
  let circleRunning = true;
  const circleLoop = (async () => {
    while (circleRunning) {
      await circle.sync();
      await sleep(40);
    }
  })();
  cleanups.push(async () => {
    circleRunning = false;
    await circleLoop;
  });

  const treasury = circle.wallets().find((w: any) => w.refId === 'treasury') as { address: Address };
  // Liquidity the treasury holds outside this test's books, so withdrawals need not wait for sweeps.
  await chain.mint(treasury.address, 'USDC', 1_000_000_000n);
  const baseline = { USDC: await chain.balanceOf(treasury.address, 'USDC'), EURC: await chain.balanceOf(treasury.address, 'EURC') };

  const users: ChaosUser[] = [];
  for (let i = 0; i < plan.users; i++) users.push(await registerChaosUser(service.baseUrl, `circle${i}`));
  let kills = 0;
  let restarts = 0;
  const killAndRestart = async () => {
    await service.kill();
    kills++;
    await sleep(Math.floor(random() * 300));
    await service.start();
    restarts++;
  };

  // Deposits: every notification of the first half duplicated, those of the second half held back
  // and sent in reverse order after a kill during the sweeps.
  circle.faults.notifications('duplicate', plan.users);
  circle.faults.notifications('late', plan.users * 2);
  for (const user of users) await chain.mint(user.depositAddress, 'USDC', DEPOSIT);
  await sleep(Math.floor(random() * 400));
  await killAndRestart();
  circle.faults.deliverLate('reverse');
  const deadline = Date.now() + 90_000;
  for (const user of users) {
    while ((await usdcBalanceMinor(service.baseUrl, user)) < DEPOSIT) {
      if (Date.now() > deadline) throw new Error(`seed ${settings.seed}: deposit to ${user.handle} not credited in 90 s`);
      await sleep(200);
    }
  }

  // Withdrawals, with kills placed by progress while they are sent and swept deposits still move.
  const operations: IntendedOperation[] = [];
  const failures: string[] = [];
  const total = plan.users * plan.withdrawalsPerUser;
  const killPoints = Array.from({ length: plan.kills - 1 }, () => Math.floor(total * (0.1 + random() * 0.8))).sort((a, b) => a - b);
  let answered = 0;
  let running = true;
  const killer = (async () => {
    for (const point of killPoints) {
      while (running && answered < point) await sleep(2);
      if (!running) break;
      await sleep(Math.floor(random() * 40));
      await killAndRestart();
    }
  })();
  const client = async (user: ChaosUser, u: number) => {
    for (let n = 0; n < plan.withdrawalsPerUser; n++) {
      const idempotencyKey = `circle-crash-${settings.seed}-${u}-${n}`;
      const address = privateKeyToAccount(keccak256(toHex(idempotencyKey))).address;
      const amount = (100 + Math.floor(random() * 900)) / 100;
      const answer = await callUntilAnswered(() => service.baseUrl, {
        method: 'POST',
        path: '/stablecoin/withdraw',
        key: user.key,
        idempotencyKey,
        body: { amount, currency: 'USDC', address },
      });
      answered++;
      if (answer.status === 200) operations.push({ kind: 'withdrawal', idempotencyKey, answeredId: answer.body?.withdrawalId });
      else failures.push(`withdrawal ${idempotencyKey}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
  };
  await Promise.all([Promise.all(users.map(client)).finally(() => (running = false)), killer]);
  if (!service.isRunning()) {
    await service.start();
    restarts++;
  }

  const db = (await openDatabase({ url: database.url, poolSize: 2 })).db;
  await waitForWithdrawals(db);
  // Every deposit swept: the books and the chain are compared once nothing is under way.
  const sweepDeadline = Date.now() + 90_000;
  for (const user of users) {
    while ((await chain.balanceOf(user.depositAddress, 'USDC')) > 0n) {
      if (Date.now() > sweepDeadline) throw new Error(`seed ${settings.seed}: ${user.depositAddress} not swept in 90 s`);
      await sleep(200);
    }
  }
  await sleep(500);
  const violations = [...failures, ...(await findViolations(db, { ...chain, hotWallet: treasury.address }, operations, baseline))];
  for (const user of users) {
    const credited = await db.selectFrom('chain_deposits').select('amount').where('to_address', '=', user.depositAddress).execute();
    if (credited.length !== 1) violations.push(`${user.depositAddress}: ${credited.length} deposits recorded, expected one`);
  }
  await db.destroy();
  // The faults happened: some notification reached peerpay twice, some delivery failed (a dead process) and was sent again.
  const delivered = new Map<string, number>();
  for (const d of circle.deliveries()) if (d.ok) delivered.set(d.notificationId, (delivered.get(d.notificationId) ?? 0) + 1);
  const failedThenSent = circle.deliveries().filter((d) => !d.ok && delivered.has(d.notificationId)).length;
  expect([...delivered.values()].some((n) => n > 1)).toBe(true);
  recordChaos('live-circle-crash', { operations: operations.length, kills, restarts, violations: violations.length });
  console.log(
    `live-circle-crash (seed ${settings.seed}): ${operations.length} withdrawals, ${kills} kills, ${restarts} restarts, ` +
      `${circle.notifications().length} notifications, ${failedThenSent} failed deliveries (a dead process) of notifications delivered later`,
  );
  expect(violations, `seed ${settings.seed}; replay with CHAOS_SEED=${settings.seed}`).toEqual([]);
  expect(operations.length).toBe(total);
});
