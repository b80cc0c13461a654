// Events across SIGKILLs and several processes: three peerpay processes on one PostgreSQL database
// take stablecoin transfers (with Idempotency-Keys, resent until answered) while their delivery jobs
// share the webhook queue, and one process at a time is SIGKILLed at seeded moments, mid-request and
// mid-delivery, and started again. Afterwards every transfer has exactly its two events (created
// exactly once: none lost with a killed request, none doubled by a resent one), and every event
// reached its account's endpoint at least once, each verified with the standardwebhooks package.
import { expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { createPostgresTestDatabase } from '../helpers/test-database.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';
import { startChaosChain } from './support/chaos-chain.js';
import { fundUsdc, registerChaosUser, type ChaosUser } from './support/chaos-accounts.js';
import { peerpayProcess, type PeerpayProcess } from './support/peerpay-process.js';
import { callOnce, callUntilAnswered } from './support/retrying-client.js';
import { processTest, sleep } from './support/process-test.js';
import { recordChaos } from './support/report.js';
import { byProfile, randomFor } from './support/settings.js';

const { settings, cleanups } = processTest();

it(`every event is created exactly once and delivered at least once across SIGKILLs and processes (seed ${settings.seed})`, async () => {
  const random = randomFor('webhooks-crash');
  const plan = byProfile({
    short: { users: 4, clients: 4, transfersPerClient: 8, kills: 3 },
    full: { users: 8, clients: 8, transfersPerClient: 30, kills: 8 },
  });
  const database = (await createPostgresTestDatabase())!;
  cleanups.push(() => database.drop());
  const chain = await startChaosChain();
  cleanups.push(() => chain.stop());
  // Answers after a few milliseconds, so that kills also land while deliveries wait for it.
  const receiver = await startWebhookReceiver({ delayMs: 15 });
  cleanups.push(() => receiver.close());

  const env = {
    ...chain.env,
    DATABASE_URL: database.url,
    CHAIN_POLL_INTERVAL_MS: '100',
    JOB_INTERVAL_MS: '200',
    RATE_LIMIT_DEFAULT_PER_MINUTE: '1000000',
    WEBHOOK_RETRY_SCHEDULE_MS: '200,200,200,200,200,200,200',
    WEBHOOK_TIMEOUT_MS: '2000',
  };
  const processes: PeerpayProcess[] = [];
  for (let i = 0; i < 3; i++) {
    const p = await peerpayProcess(`hooks${i}`, env);
    cleanups.push(() => p.stop());
    processes.push(p);
  }
  await Promise.all(processes.map((p) => p.start()));
  const running = () => processes.filter((p) => p.isRunning());
  const anyProcess = () => {
    const alive = running();
    return (alive.length > 0 ? alive : processes)[Math.floor(random() * (alive.length || processes.length))]!.baseUrl;
  };

  const users: ChaosUser[] = [];
  for (let i = 0; i < plan.users; i++) {
    const user = await registerChaosUser(processes[0]!.baseUrl, `hooks${i}`);
    const path = `/u${i}`;
    const created = await callOnce(processes[0]!.baseUrl, {
      method: 'POST',
      path: '/webhook-endpoints',
      key: user.key,
      body: { url: receiver.url.replace(/\/hooks$/, path) },
    });
    expect(created?.status).toBe(201);
    receiver.setSecret(created!.body.secret, path);
    users.push(user);
  }
  await fundUsdc(processes[0]!.baseUrl, chain, users, 1_000n * 1_000_000n);

  const answeredIds: string[] = [];
  const failures: string[] = [];
  let answered = 0;
  let busy = true;
  async function runClient(client: number): Promise<void> {
    for (let n = 0; n < plan.transfersPerClient; n++) {
      const sender = users[client % users.length]!;
      let recipient = users[Math.floor(random() * users.length)]!;
      if (recipient === sender) recipient = users[(client + 1) % users.length]!;
      const answer = await callUntilAnswered(anyProcess, {
        method: 'POST',
        path: '/agent/transfer',
        key: sender.key,
        idempotencyKey: `hooks-${settings.seed}-${client}-${n}`,
        body: { to: recipient.handle, amount: (50 + Math.floor(random() * 100)) / 100, currency: 'USDC' },
      });
      answered++;
      if (answer.status === 200) answeredIds.push(answer.body.transferId);
      else failures.push(`transfer ${client}-${n}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
  }

  // Kills by progress, as in crash-recovery.test.ts: the k-th when a seeded share of the transfers is answered.
  const total = plan.clients * plan.transfersPerClient;
  const killPoints = Array.from({ length: plan.kills }, () => Math.floor(total * (0.1 + random() * 0.8))).sort((a, b) => a - b);
  let kills = 0;
  const killer = (async () => {
    for (const point of killPoints) {
      while (busy && answered < point) await sleep(2);
      const victim = processes[Math.floor(random() * processes.length)]!;
      if (!victim.isRunning()) continue;
      await sleep(Math.floor(random() * 40));
      await victim.kill();
      kills++;
      await sleep(Math.floor(random() * 300));
      await victim.start();
    }
  })();
  await Promise.all([Promise.all(Array.from({ length: plan.clients }, (_, c) => runClient(c))).finally(() => (busy = false)), killer]);
  for (const p of processes) if (!p.isRunning()) await p.start();

  const db = (await openDatabase({ url: database.url, poolSize: 2 })).db;
  // The processes' delivery jobs empty the queue (leases of killed processes run out after 36 s at most).
  for (let round = 0; round < 600; round++) {
    const pending = await db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    if (Number(pending.n) === 0) break;
    await sleep(100);
  }
  const events = await db.selectFrom('events').select(['id', 'type', 'subject_id']).execute();
  const deliveries = await db.selectFrom('webhook_deliveries').select(['status']).execute();
  await db.destroy();

  const violations = [...failures];
  const transferIds = new Set(answeredIds);
  if (transferIds.size !== answeredIds.length) violations.push('two answers named the same transfer');
  for (const id of transferIds) {
    for (const type of ['transfer.sent', 'transfer.received']) {
      const n = events.filter((e) => e.subject_id === id && e.type === type).length;
      if (n !== 1) violations.push(`${id}: ${n} ${type} events`);
    }
  }
  // Besides the transfers' events: each user's funding deposit, credited once.
  const deposits = events.filter((e) => e.type === 'deposit.credited');
  if (deposits.length !== plan.users) violations.push(`${deposits.length} deposit.credited events for ${plan.users} deposits`);
  const stray = events.filter((e) => e.type !== 'deposit.credited' && !transferIds.has(e.subject_id));
  if (stray.length > 0)
    violations.push(
      `${stray.length} events of no answered transfer: ${stray
        .slice(0, 3)
        .map((e) => e.subject_id)
        .join(', ')}`,
    );
  const receivedIds = new Set(receiver.received.map((w) => w.id));
  const undelivered = events.filter((e) => !receivedIds.has(e.id));
  if (undelivered.length > 0)
    violations.push(
      `${undelivered.length} events never delivered: ${undelivered
        .slice(0, 3)
        .map((e) => e.id)
        .join(', ')}`,
    );
  if (receiver.refused.length > 0) violations.push(`${receiver.refused.length} webhooks failed verification: ${receiver.refused[0]}`);
  const notDelivered = deliveries.filter((d) => d.status !== 'delivered');
  if (notDelivered.length > 0) violations.push(`${notDelivered.length} deliveries not delivered`);
  const duplicates = receiver.received.length - receivedIds.size;
  recordChaos('webhooks-crash', { operations: answeredIds.length, kills, violations: violations.length });
  console.log(
    `webhooks-crash (seed ${settings.seed}): ${answeredIds.length} transfers, ${events.length} events, ${kills} kills, ` +
      `${receiver.received.length} webhooks received (${duplicates} repeated: at least once)`,
  );
  expect(violations, `seed ${settings.seed}; replay with CHAOS_SEED=${settings.seed}`).toEqual([]);
  expect(answeredIds).toHaveLength(total);
  expect(events).toHaveLength(2 * total + plan.users);
});
