// Crash recovery, exactly once: peerpay runs as a real process on PostgreSQL; concurrent clients
// send fiat transfers, stablecoin transfers and withdrawals with Idempotency-Keys; the process is
// SIGKILLed at seeded moments and started again; clients resend every request whose answer they did
// not see, with the same key. Afterwards each operation exists exactly once, the ledger balances,
// every withdrawal reached the chain once, and the chain holds what the books say.
import { expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { keccak256, toHex } from 'viem';
import { openDatabase } from '../../src/db/database.js';
import { createPostgresTestDatabase } from '../helpers/test-database.js';
import { startChaosChain } from './support/chaos-chain.js';
import { fundUsdc, registerChaosUser, saveCard, type ChaosUser } from './support/chaos-accounts.js';
import { peerpayProcess } from './support/peerpay-process.js';
import { callUntilAnswered } from './support/retrying-client.js';
import { processTest, sleep } from './support/process-test.js';
import { recordChaos } from './support/report.js';
import { byProfile, randomFor } from './support/settings.js';
import { findViolations, waitForWithdrawals, type IntendedOperation, type OperationKind } from './support/verify.js';

const { settings, cleanups } = processTest();

it(`every operation happens exactly once across SIGKILLs and restarts (seed ${settings.seed})`, async () => {
  const random = randomFor('crash-recovery');
  const t0 = Date.now();
  const phases: string[] = [];
  const phase = (name: string) => phases.push(`${name} ${Date.now() - t0} ms`);
  const plan = byProfile({
    short: { clients: 6, operationsPerClient: 6, kills: 2 },
    full: { clients: 12, operationsPerClient: 40, kills: 8 },
  });
  const database = (await createPostgresTestDatabase())!;
  cleanups.push(() => database.drop());
  const chain = await startChaosChain();
  cleanups.push(() => chain.stop());
  // Liquidity for withdrawals that the hot wallet holds for reasons outside this test's books.
  await chain.mint(chain.hotWallet, 'USDC', 1_000_000_000n);
  phase('chain');
  const hotWalletBaseline = { USDC: await chain.balanceOf(chain.hotWallet, 'USDC'), EURC: await chain.balanceOf(chain.hotWallet, 'EURC') };

  const service = await peerpayProcess('crash', {
    ...chain.env,
    DATABASE_URL: database.url,
    CHAIN_POLL_INTERVAL_MS: '200',
    JOB_INTERVAL_MS: '500',
    RATE_LIMIT_DEFAULT_PER_MINUTE: '1000000',
  });
  cleanups.push(() => service.stop());
  await service.start();
  phase('started');
  const baseUrl = () => service.baseUrl;

  const users: ChaosUser[] = [];
  for (let i = 0; i < Math.max(4, plan.clients); i++) users.push(await registerChaosUser(service.baseUrl, `crash${i}`));
  for (const user of users) await saveCard(service.baseUrl, user);
  await fundUsdc(service.baseUrl, chain, users, 10_000_000_000n);
  phase('users funded');

  const operations: IntendedOperation[] = [];
  const failures: string[] = [];
  let running = true;
  let longestWaitMs = 0;
  let resent = 0;
  let answered = 0;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

  // Each client's schedule is drawn before it starts, so the seed fixes what is asked for.
  const schedules = Array.from({ length: plan.clients }, (_, client) =>
    Array.from({ length: plan.operationsPerClient }, (_, n) => {
      const kind = pick<OperationKind>(['stablecoin_transfer', 'stablecoin_transfer', 'fiat_transfer', 'withdrawal']);
      const sender = users[client % users.length]!;
      let recipient = pick(users);
      while (recipient === sender) recipient = pick(users);
      // Fiat transfers start at the minimum charge (DESIGN §15: 0.50 USD with the fee).
      const cents = 50 + Math.floor(random() * 451);
      const idempotencyKey = `crash-${settings.seed}-${client}-${n}`;
      const destination = privateKeyToAccount(keccak256(toHex(idempotencyKey))).address;
      return { kind, sender, recipient, cents, idempotencyKey, destination };
    }),
  );

  async function runClient(schedule: (typeof schedules)[number]): Promise<void> {
    for (const step of schedule) {
      const amount = step.cents / 100;
      const request =
        step.kind === 'stablecoin_transfer'
          ? { method: 'POST', path: '/agent/transfer', body: { to: step.recipient.handle, amount, currency: 'USDC' } }
          : step.kind === 'fiat_transfer'
            ? {
                method: 'POST',
                path: '/transfers',
                body: { recipientHandle: step.recipient.handle, amount, currency: 'USD', paymentMethod: 'instant' },
              }
            : {
                method: 'POST',
                path: '/stablecoin/withdraw',
                body: { amount: (step.cents + 100) / 100, currency: 'USDC', address: step.destination },
              };
      const started = Date.now();
      const answer = await callUntilAnswered(baseUrl, { ...request, key: step.sender.key, idempotencyKey: step.idempotencyKey });
      longestWaitMs = Math.max(longestWaitMs, Date.now() - started);
      answered++;
      if (answer.attempts > 1) resent++;
      if (answer.status >= 200 && answer.status < 300) {
        const answeredId = answer.body?.transfer?.id ?? answer.body?.transferId ?? answer.body?.withdrawalId;
        if (typeof answeredId !== 'string')
          failures.push(`${step.kind} ${step.idempotencyKey}: a 2xx answer without an id: ${JSON.stringify(answer.body)}`);
        operations.push({ kind: step.kind, idempotencyKey: step.idempotencyKey, answeredId });
      } else {
        failures.push(`${step.kind} ${step.idempotencyKey}: ${answer.status} ${JSON.stringify(answer.body)}`);
      }
    }
  }

  // Kills are placed by progress, not by the clock: the n-th kill comes when a seeded number of
  // operations has been answered (between a tenth and five sixths of them), plus a few milliseconds so
  // that it lands while other clients' requests are under way. A clock would miss a short run
  // altogether, or kill only after the clients were done.
  const total = plan.clients * plan.operationsPerClient;
  const killPoints = Array.from({ length: plan.kills }, () => Math.floor(total * (0.1 + random() * 0.73)))
    .sort((a, b) => a - b)
    .map((point, k) => point + k);
  let kills = 0;
  let restarts = 0;
  const killer = (async () => {
    for (const point of killPoints) {
      while (running && answered < point) await sleep(2);
      if (!running) break;
      await sleep(Math.floor(random() * 30));
      await service.kill();
      kills++;
      await sleep(Math.floor(random() * 400));
      await service.start();
      restarts++;
    }
  })();
  // A restart that fails (the process exits at start) fails the run at once, with its output,
  // rather than leaving the clients to resend into a closed port until their deadline.
  await Promise.all([
    Promise.all(schedules.map(runClient)).finally(() => (running = false)),
    killer.catch((error) => {
      running = false;
      throw new Error(`seed ${settings.seed}: restart failed: ${String(error)}`);
    }),
  ]);
  phase('clients done');
  if (!service.isRunning()) {
    await service.start();
    restarts++;
  }

  const db = (await openDatabase({ url: database.url, poolSize: 2 })).db;
  await waitForWithdrawals(db);
  phase('withdrawals settled');
  const violations = [...failures, ...(await findViolations(db, chain, operations, hotWalletBaseline))];
  await db.destroy();
  recordChaos('crash-recovery', { operations: operations.length, kills, restarts, violations: violations.length });
  console.log(
    `crash-recovery (seed ${settings.seed}): ${operations.length} operations, ${kills} kills, ${restarts} restarts, ` +
      `${resent} requests resent, longest wait for a final answer ${longestWaitMs} ms; ${phases.join(', ')}`,
  );
  expect(violations, `seed ${settings.seed}; replay with CHAOS_SEED=${settings.seed}`).toEqual([]);
  expect(operations.length).toBe(plan.clients * plan.operationsPerClient);
  expect(kills).toBe(plan.kills);
});
