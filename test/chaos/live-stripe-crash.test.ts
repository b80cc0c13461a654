// No path charges, debits or pays twice across a SIGKILL during a Stripe call, a duplicate webhook
// or a repeated request. peerpay runs in live mode as a real process (PostgreSQL, a separate
// anvil, the Stripe stand-in); the stand-in does a call's work and then never answers, the process
// is killed while it waits, and the client's retry with the same Idempotency-Key (or, for a
// payout, the job) must end in exactly one PaymentIntent or Transfer at Stripe and one credit.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createHdWalletProvider } from '../../src/adapters/wallet/hd-wallet-provider.js';
import { openDatabase, type Db } from '../../src/db/database.js';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { startStripeStandIn, type StripeStandIn, type TestPaymentMethod } from '../fakes/stripe/index.js';
import { liveModeEnv } from '../helpers/live-mode.js';
import { startLiveChain, type LiveChain } from '../helpers/live-chain.js';
import { lastPathSegment } from '../helpers/live-mode.js';
import { createPostgresTestDatabase } from '../helpers/test-database.js';
import { peerpayProcess, type PeerpayProcess } from './support/peerpay-process.js';
import { processTest, sleep } from './support/process-test.js';
import { callOnce, callUntilAnswered, type CallOptions } from './support/retrying-client.js';
import { recordChaos } from './support/report.js';
import { byProfile, randomFor } from './support/settings.js';
import { chaosTally } from './support/tally.js';

const { settings, cleanups } = processTest();
const replay = `seed ${settings.seed}; replay with CHAOS_SEED=${settings.seed}`;
const tally = chaosTally();
const counts = { kills: 0, restarts: 0 };
afterAll(() => recordChaos('live-stripe-crash', { operations: tally.operations, violations: tally.violations, ...counts }));

const SECRET_KEY = `sk_test_chaos${randomBytes(12).toString('hex')}`;
const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const MASTER_SEED = `0x${randomBytes(32).toString('hex')}`;

interface User {
  email: string;
  key: string;
  handle: string;
}

let stripe: StripeStandIn;
let chain: LiveChain;
let service: PeerpayProcess;
let db: Db;
const baseUrl = () => service.baseUrl;

async function must(method: string, path: string, options: Omit<CallOptions, 'method' | 'path'> = {}): Promise<any> {
  const answer = await callOnce(service.baseUrl, { method, path, ...options });
  if (!answer || answer.status >= 300)
    throw new Error(`${method} ${path}: ${answer ? `${answer.status} ${JSON.stringify(answer.body)}` : 'no answer'}`);
  return answer.body;
}

async function register(label: string): Promise<User> {
  const email = `${label}-${randomBytes(4).toString('hex')}@example.com`;
  const body = await must('POST', '/agent/register', {
    body: { email, password: 'correct horse battery', name: `Chaos ${label.replace(/[^a-z]/gi, '')}` },
  });
  return { email, key: body.apiKey, handle: body.agentHandle };
}

/** Saves a card or bank account through Checkout and delivers the webhook that records it. */
async function saveInstrument(
  user: User,
  endpoint: '/agent/setup-link' | '/agent/bank-debit-link',
  paymentMethod: TestPaymentMethod,
): Promise<void> {
  const link = await must('POST', endpoint, { key: user.key });
  stripe.completeCheckoutSession(lastPathSegment(link.url), { paymentMethod });
  await stripe.deliverAll();
}

/** GET /balance USD in cents: available and pending. */
async function usd(user: User): Promise<{ available: number; pending: number }> {
  const answer = await callUntilAnswered(baseUrl, { method: 'GET', path: '/balance', key: user.key });
  const entry = (answer.body.balances as { currency: string; available: string; pending: string }[]).find((b) => b.currency === 'USD');
  const cents = (value: string | undefined) => Math.round(Number(value ?? '0') * 100);
  return { available: cents(entry?.available), pending: cents(entry?.pending) };
}

async function until(what: string, done: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms (${replay})`);
    await sleep(20);
  }
}

async function kill(): Promise<void> {
  await service.kill();
  counts.kills++;
}

async function restart(): Promise<void> {
  await service.start();
  counts.restarts++;
}

const hungCalls = (path: string) => stripe.requests().filter((r) => r.path === path && r.fault === 'timeout').length;

/**
 * Makes the stand-in do `path`'s work and then never answer (every retry of stripe-node too),
 * starts `call`, SIGKILLs peerpay once the stand-in has done the work, and starts peerpay again
 * with the fault gone. `beforeRestart` runs while peerpay is down.
 */
async function killDuringStripeCall(path: string, call: () => Promise<unknown>, beforeRestart?: () => Promise<void>): Promise<void> {
  const hung = hungCalls(path);
  stripe.failNext({ method: 'POST', path, fault: 'timeout', when: 'after', count: 10 });
  const cutOff = call();
  await until(`peerpay calls ${path}`, () => hungCalls(path) > hung);
  await kill();
  expect(await cutOff, 'the request under way got no answer').toBeNull();
  stripe.clearFaults();
  await beforeRestart?.();
  await restart();
}

const intentsOf = (transferId: string) => stripe.paymentIntents().filter((pi) => pi.metadata.peerpay_transfer_id === transferId);

/** Everything a duplicate event could change: ledger, transfers, payouts, balances (as the API says). */
async function moneyState(users: User[]): Promise<unknown> {
  const ledger = await sql`select count(*)::text as n, sum(amount)::text as total from ledger_transfers`.execute(db);
  const accounts =
    await sql`select code, balance::text, pending_debits::text, pending_credits::text from ledger_accounts order by code`.execute(db);
  const transfers = await sql`select id, status, processor_ref from fiat_transfers order by id`.execute(db);
  const payouts = await sql`select id, status, processor_ref from payouts order by id`.execute(db);
  const balances = [];
  for (const user of users) balances.push(await usd(user));
  return { ledger: ledger.rows, accounts: accounts.rows, transfers: transfers.rows, payouts: payouts.rows, balances };
}

let payer: User; // card
let achPayer: User; // bank debit
let payee: User; // receives (a) and (b); never onboarded, so nothing is paid out from under the checks
let earner: User; // receives, then is paid out in (c)
const everyone: User[] = [];

beforeAll(async () => {
  const database = (await createPostgresTestDatabase())!;
  cleanups.push(() => database.drop());
  const hotWallet = createHdWalletProvider(Buffer.from(MASTER_SEED.slice(2), 'hex')).hotWallet.address;
  chain = await startLiveChain({ hotWallet });
  cleanups.push(() => chain.stop());
  // Manual webhooks for the crash cases, so that the path under test is the client's retry (a
  // webhook arriving during the hang would record the charge first); the loop switches to auto.
  stripe = await startStripeStandIn({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, webhookMode: 'manual' });
  cleanups.push(() => stripe.close());
  service = await peerpayProcess('live-stripe', {
    ...liveModeEnv({
      databaseUrl: database.url,
      chain,
      stripeApiBase: stripe.apiBase,
      masterSeed: MASTER_SEED,
      stripeSecretKey: SECRET_KEY,
      stripeWebhookSecret: WEBHOOK_SECRET,
    }),
    // Long enough that a hung call is still waiting when the kill comes.
    STRIPE_TIMEOUT_MS: '5000',
    // Card money is available at once, for the payouts; live mode's hold is live-card-risk-crash's subject.
    FIAT_HOLD_HOURS: '0',
    JOB_INTERVAL_MS: '200',
    CHAIN_POLL_INTERVAL_MS: '500',
    RATE_LIMIT_DEFAULT_PER_MINUTE: '1000000',
  });
  cleanups.push(() => service.stop());
  stripe.setWebhookUrl(`${service.baseUrl}/webhooks/stripe`);
  await service.start();
  const opened = await openDatabase({ url: database.url, poolSize: 2 });
  db = opened.db;
  cleanups.push(() => db.destroy());
  [payer, achPayer, payee, earner] = [await register('payer'), await register('ach'), await register('payee'), await register('earner')];
  everyone.push(payer, achPayer, payee, earner);
  await saveInstrument(payer, '/agent/setup-link', 'pm_card_visa');
  await saveInstrument(achPayer, '/agent/bank-debit-link', 'pm_usBankAccount_success');
}, 120_000);

afterAll(async () => {
  if (db) expect(await checkLedgerInvariants(db), replay).toEqual([]);
});

it(
  '(a) instant: killed while Stripe holds the charge’s answer; the retry with the same key completes it with one PaymentIntent',
  tally.counted(async () => {
    const before = await usd(payee);
    const request: CallOptions = {
      method: 'POST',
      path: '/transfers',
      key: payer.key,
      idempotencyKey: 'crash-card-1',
      body: { recipientHandle: payee.handle, amount: 7.25, currency: 'USD', paymentMethod: 'instant' },
    };
    await killDuringStripeCall('/v1/payment_intents', () => callOnce(baseUrl(), request));
    const answer = await callUntilAnswered(baseUrl, request);
    tally.operations++;
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.transfer.status).toBe('completed');
    const transferId: string = answer.body.transfer.id;
    expect(
      intentsOf(transferId).map((pi) => pi.status),
      replay,
    ).toEqual(['succeeded']);
    // The retry asked Stripe again under the same key, and Stripe replayed the first charge.
    const asked = stripe.requests().filter((r) => r.path === '/v1/payment_intents' && r.idempotencyKey === transferId);
    expect(
      asked.some((r) => r.replayed && r.status === 200),
      replay,
    ).toBe(true);
    expect(await usd(payee)).toEqual({ available: before.available + 725, pending: before.pending });
    // The same request once more: the stored answer, nothing new at Stripe.
    const again = await callUntilAnswered(baseUrl, request);
    expect(again.body.transfer.id).toBe(transferId);
    expect(intentsOf(transferId)).toHaveLength(1);
  }),
  90_000,
);

it(
  '(b) ACH: killed while Stripe holds the debit’s answer; the retry is pending on one PaymentIntent, completed once when it settles',
  tally.counted(async () => {
    const before = await usd(payee);
    const request: CallOptions = {
      method: 'POST',
      path: '/transfers',
      key: achPayer.key,
      idempotencyKey: 'crash-ach-1',
      body: { recipientHandle: payee.handle, amount: 30, currency: 'USD', paymentMethod: 'ach' },
    };
    await killDuringStripeCall('/v1/payment_intents', () => callOnce(baseUrl(), request));
    const answer = await callUntilAnswered(baseUrl, request);
    tally.operations++;
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.transfer.status).toBe('pending');
    const transferId: string = answer.body.transfer.id;
    const intents = intentsOf(transferId);
    expect(
      intents.map((pi) => pi.status),
      replay,
    ).toEqual(['processing']);
    expect(await usd(payee)).toEqual({ available: before.available, pending: before.pending + 3000 });

    stripe.settleBankDebits([intents[0]!.id]);
    await stripe.deliverAll();
    expect(await usd(payee)).toEqual({ available: before.available + 3000, pending: before.pending });
    const history = await must('GET', '/transfers', { key: achPayer.key });
    expect(history.transfers.find((t: { id: string }) => t.id === transferId)).toMatchObject({ status: 'completed' });
    expect(intentsOf(transferId)).toHaveLength(1);
  }),
  90_000,
);

it(
  '(c) payout: killed while Stripe holds the transfer’s answer; after the restart the job finishes it with one Stripe transfer',
  tally.counted(async () => {
    await must('POST', '/transfers', {
      key: payer.key,
      idempotencyKey: 'earner-funds',
      body: { recipientHandle: earner.handle, amount: 9, currency: 'USD' },
    });
    tally.operations++;
    expect(await usd(earner)).toEqual({ available: 900, pending: 0 });
    await must('POST', '/agent/connect-link', { key: earner.key });
    const account = stripe.accounts().find((a) => a.email === earner.email)!;
    await killDuringStripeCall(
      '/v1/transfers',
      async () => {
        stripe.completeOnboarding(account.id);
        await stripe.deliverAll(); // account.updated: payouts enabled, the payout job starts
        return null; // the job's call, not a client's, is what gets cut off
      },
      // The dead worker's lease on the payout (5 minutes) would keep the new process from retrying
      // it until then; ending it here stands for those minutes passing.
      async () => void (await sql`update payouts set locked_until = null where status = 'pending'`.execute(db)),
    );
    await until(
      'payout paid',
      async () => (await sql<{ n: number }>`select count(*)::int as n from payouts where status = 'paid'`.execute(db)).rows[0]!.n === 1,
    );
    await sleep(1000); // more job rounds: still one
    const transfers = stripe.transfers().filter((t) => t.destination === account.id);
    expect(
      transfers.map((t) => t.amount),
      replay,
    ).toEqual([900]);
    const asked = stripe.requests().filter((r) => r.path === '/v1/transfers');
    expect(new Set(asked.map((r) => r.idempotencyKey)).size, 'one payout id as key').toBe(1);
    expect(
      asked.some((r) => r.replayed),
      'the job asked again under the same key',
    ).toBe(true);
    expect(await usd(earner)).toEqual({ available: 0, pending: 0 });
    const entries = (await must('GET', '/transactions', { key: earner.key })).transactions.filter(
      (e: { type: string }) => e.type === 'payout',
    );
    expect(entries).toMatchObject([{ amount: '9.00', status: 'paid' }]);
  }),
  90_000,
);

it(
  `(e) clients send instant transfers with keys while peerpay is SIGKILLed at seeded moments: one charge and one credit per key (seed ${settings.seed})`,
  tally.counted(async () => {
    const random = randomFor('live-stripe-crash');
    const plan = byProfile({ short: { clients: 4, perClient: 5, kills: 2 }, full: { clients: 8, perClient: 20, kills: 8 } });
    stripe.setWebhookMode('auto'); // webhooks now race the requests and the kills, as on Stripe
    const senders: User[] = [];
    for (let i = 0; i < plan.clients; i++) {
      const sender = await register(`loop${i}`);
      await saveInstrument(sender, '/agent/setup-link', 'pm_card_visa');
      senders.push(sender);
    }
    const recipients = [await register('loopR0'), await register('loopR1')];
    everyone.push(...senders, ...recipients);
    const start = await Promise.all(recipients.map(usd));
    const schedules = senders.map((sender, client) =>
      Array.from({ length: plan.perClient }, (_, n) => ({
        sender,
        recipient: recipients[Math.floor(random() * recipients.length)]!,
        cents: 50 + Math.floor(random() * 951),
        key: `loop-${settings.seed}-${client}-${n}`,
      })),
    );
    const total = plan.clients * plan.perClient;
    const answered = new Map<string, { transferId: string; recipient: User; cents: number }>();
    const failures: string[] = [];
    let done = 0;
    let running = true;

    async function runClient(schedule: (typeof schedules)[number]): Promise<void> {
      for (const step of schedule) {
        const answer = await callUntilAnswered(baseUrl, {
          method: 'POST',
          path: '/transfers',
          key: step.sender.key,
          idempotencyKey: step.key,
          body: { recipientHandle: step.recipient.handle, amount: step.cents / 100, currency: 'USD', paymentMethod: 'instant' },
          deadlineMs: 60_000,
        });
        done++;
        tally.operations++;
        if (answer.status === 200 && answer.body.transfer.status === 'completed')
          answered.set(step.key, { transferId: answer.body.transfer.id, recipient: step.recipient, cents: step.cents });
        else failures.push(`${step.key}: ${answer.status} ${JSON.stringify(answer.body)}`);
      }
    }

    // Kills are placed by progress (see crash-recovery.test.ts). Half of them, by the seed, wait for
    // a charge the stand-in has made and not yet answered, so that they land inside a Stripe call.
    const killPoints = Array.from({ length: plan.kills }, () => Math.floor(total * (0.1 + random() * 0.7))).sort((a, b) => a - b);
    const killer = (async () => {
      for (const point of killPoints) {
        while (running && done < point) await sleep(5);
        if (!running) return;
        if (random() < 0.5) {
          const hung = hungCalls('/v1/payment_intents');
          stripe.failNext({ method: 'POST', path: '/v1/payment_intents', fault: 'timeout', when: 'after', count: 1 });
          while (running && hungCalls('/v1/payment_intents') === hung) await sleep(2);
          stripe.clearFaults();
        } else {
          await sleep(Math.floor(random() * 50));
        }
        await kill();
        await sleep(Math.floor(random() * 300));
        await restart();
      }
    })();
    await Promise.all([Promise.all(schedules.map(runClient)).finally(() => (running = false)), killer]);
    stripe.clearFaults();
    if (!service.isRunning()) await restart();
    // Webhooks sent while peerpay was down: delivered now, late, as Stripe would retry them.
    await stripe.webhooksIdle();
    await stripe.deliverAll();

    const violations = [...failures];
    const ids = new Set([...answered.values()].map((a) => a.transferId));
    const loopIntents = stripe
      .paymentIntents()
      .filter((pi) => senders.some((s) => stripe.customers().find((c) => c.id === pi.customer)?.email === s.email));
    const perTransfer = new Map<string, number>();
    for (const pi of loopIntents)
      perTransfer.set(pi.metadata.peerpay_transfer_id!, (perTransfer.get(pi.metadata.peerpay_transfer_id!) ?? 0) + 1);
    for (const [id, n] of perTransfer) {
      if (n > 1) violations.push(`transfer ${id} charged ${n} times`);
      if (!ids.has(id)) violations.push(`PaymentIntent for transfer ${id}, which no client was answered with`);
    }
    const succeeded = loopIntents.filter((pi) => pi.status === 'succeeded').length;
    if (succeeded !== answered.size) violations.push(`${succeeded} succeeded PaymentIntents for ${answered.size} completed transfers`);
    const completed = (
      await sql<{
        n: number;
      }>`select count(*)::int as n from fiat_transfers where idempotency_key like ${`loop-${settings.seed}-%`} and status = 'completed'`.execute(
        db,
      )
    ).rows[0]!.n;
    if (completed !== answered.size) violations.push(`${completed} completed transfers in the books for ${answered.size} answered`);
    for (const [i, recipient] of recipients.entries()) {
      const expected =
        start[i]!.available + [...answered.values()].filter((a) => a.recipient === recipient).reduce((sum, a) => sum + a.cents, 0);
      const now = await usd(recipient);
      if (now.available !== expected) violations.push(`${recipient.handle} holds ${now.available} cents, expected ${expected}`);
    }
    tally.violations += violations.length;
    console.log(
      `live-stripe-crash loop (seed ${settings.seed}): ${answered.size}/${total} transfers, ${counts.kills} kills so far, ${loopIntents.length} PaymentIntents`,
    );
    expect(violations, replay).toEqual([]);
    expect(answered.size).toBe(total);
  }),
  byProfile({ short: 120_000, full: 900_000 }),
);

it(
  '(d) every webhook event delivered again, twice, changes nothing',
  tally.counted(async () => {
    stripe.setWebhookMode('manual');
    await stripe.deliverAll(); // anything still pending arrives once, first
    await sleep(500);
    const before = await moneyState(everyone);
    const events = stripe.events();
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) {
      const attempts = await stripe.deliver(event.id, { times: 2 });
      tally.operations += attempts.length;
      expect(
        attempts.every((a) => a.ok),
        `${event.type} ${event.id}: ${JSON.stringify(attempts.map((a) => a.status))}`,
      ).toBe(true);
    }
    await sleep(1000); // a few job rounds too
    expect(await moneyState(everyone), replay).toEqual(before);
  }),
  60_000,
);
