// Card money risk under crashes (DESIGN §16): refunds, disputes and their webhooks delivered twice,
// out of order and concurrently with card transfers and payouts, while peerpay (live mode, a real
// process on PostgreSQL, the Stripe stand-in) is SIGKILLed at seeded moments, once inside Stripe's
// refund call. Afterwards peerpay's books are checked against Stripe's side: each refund and each
// dispute booked once with Stripe's amount and outcome, nothing taken back twice from a transfer,
// and each recipient's position equal to what they received less what was taken back, as the
// ledger, their balance and Stripe's transfers to their account say.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createHdWalletProvider } from '../../src/adapters/wallet/hd-wallet-provider.js';
import { openDatabase, type Db } from '../../src/db/database.js';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { startStripeStandIn, type StripeStandIn } from '../fakes/stripe/index.js';
import { lastPathSegment, liveModeEnv } from '../helpers/live-mode.js';
import { startLiveChain, type LiveChain } from '../helpers/live-chain.js';
import { cardRiskMismatches } from '../helpers/stripe-card-risk-books.js';
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
afterAll(() => recordChaos('live-card-risk-crash', { operations: tally.operations, violations: tally.violations, ...counts }));

const SECRET_KEY = `sk_test_chaos${randomBytes(12).toString('hex')}`;
const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const MASTER_SEED = `0x${randomBytes(32).toString('hex')}`;
const OPERATOR_TOKEN = `op_${randomBytes(16).toString('hex')}`;

interface User {
  email: string;
  key: string;
  handle: string;
}
interface Paid {
  transferId: string;
  recipient: User;
  cents: number;
}

let stripe: StripeStandIn;
let chain: LiveChain;
let service: PeerpayProcess;
let db: Db;
const baseUrl = () => service.baseUrl;

async function must(method: string, path: string, options: Omit<CallOptions, 'method' | 'path'> = {}): Promise<any> {
  const answer = await callUntilAnswered(baseUrl, { method, path, ...options });
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

async function register(label: string): Promise<User> {
  const email = `${label}-${randomBytes(4).toString('hex')}@example.com`;
  const body = await must('POST', '/agent/register', { body: { email, password: 'correct horse battery', name: 'Chaos Risk' } });
  return { email, key: body.apiKey, handle: body.agentHandle };
}

async function cardPayer(label: string): Promise<User> {
  const user = await register(label);
  const link = await must('POST', '/agent/setup-link', { key: user.key });
  stripe.completeCheckoutSession(lastPathSegment(link.url), { paymentMethod: 'pm_card_visa' });
  await stripe.webhooksIdle();
  return user;
}

async function onboardedRecipient(label: string): Promise<User> {
  const user = await register(label);
  await must('POST', '/agent/connect-link', { key: user.key });
  stripe.completeOnboarding(stripe.accounts().find((a) => a.email === user.email)!.id);
  await stripe.webhooksIdle();
  return user;
}

const cents = (value: string | undefined) => Math.round(Number(value ?? '0') * 100);

async function kill(): Promise<void> {
  await service.kill();
  counts.kills++;
}
async function restart(): Promise<void> {
  await service.start();
  counts.restarts++;
}
async function until(what: string, done: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms (${replay})`);
    await sleep(20);
  }
}
const hungCalls = (path: string) => stripe.requests().filter((r) => r.path === path && r.fault === 'timeout').length;
const intentOf = (transferId: string) => stripe.paymentIntents().find((pi) => pi.metadata.peerpay_transfer_id === transferId);

async function pay(sender: User, recipient: User, amountCents: number, key: string): Promise<Paid | null> {
  const answer = await callUntilAnswered(baseUrl, {
    method: 'POST',
    path: '/transfers',
    key: sender.key,
    idempotencyKey: key,
    body: { recipientHandle: recipient.handle, amount: amountCents / 100, currency: 'USD', paymentMethod: 'instant' },
    deadlineMs: 60_000,
  });
  tally.operations++;
  return answer.status === 200 && answer.body.transfer.status === 'completed'
    ? { transferId: answer.body.transfer.id, recipient, cents: amountCents }
    : null;
}

const refundRequest = (transferId: string, key: string, amountCents?: number): CallOptions => ({
  method: 'POST',
  path: `/admin/transfers/${transferId}/refund`,
  key: OPERATOR_TOKEN,
  idempotencyKey: key,
  body: {
    ...(amountCents === undefined ? {} : { amount: amountCents / 100 }),
    reason: 'requested_by_customer',
    note: 'chaos',
  },
  deadlineMs: 60_000,
});

let senders: User[] = [];
let recipients: User[] = [];
const paid: Paid[] = [];

beforeAll(async () => {
  const database = (await createPostgresTestDatabase())!;
  cleanups.push(() => database.drop());
  const hotWallet = createHdWalletProvider(Buffer.from(MASTER_SEED.slice(2), 'hex')).hotWallet.address;
  chain = await startLiveChain({ hotWallet });
  cleanups.push(() => chain.stop());
  stripe = await startStripeStandIn({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, webhookMode: 'auto' });
  cleanups.push(() => stripe.close());
  service = await peerpayProcess('live-card-risk', {
    ...liveModeEnv({
      databaseUrl: database.url,
      chain,
      stripeApiBase: stripe.apiBase,
      masterSeed: MASTER_SEED,
      stripeSecretKey: SECRET_KEY,
      stripeWebhookSecret: WEBHOOK_SECRET,
    }),
    STRIPE_TIMEOUT_MS: '5000',
    JOB_INTERVAL_MS: '200',
    CHAIN_POLL_INTERVAL_MS: '500',
    RATE_LIMIT_DEFAULT_PER_MINUTE: '1000000',
    // About a second: holds end and payouts run while the refunds and disputes come.
    FIAT_HOLD_HOURS: '0.0003',
    OPERATOR_TOKEN,
  });
  cleanups.push(() => service.stop());
  stripe.setWebhookUrl(`${service.baseUrl}/webhooks/stripe`);
  await service.start();
  const opened = await openDatabase({ url: database.url, poolSize: 2 });
  db = opened.db;
  cleanups.push(() => db.destroy());
  const plan = byProfile({ short: { senders: 3, recipients: 2 }, full: { senders: 6, recipients: 4 } });
  senders = await Promise.all(Array.from({ length: plan.senders }, (_, i) => cardPayer(`sender${i}`)));
  recipients = await Promise.all(Array.from({ length: plan.recipients }, (_, i) => onboardedRecipient(`recipient${i}`)));
}, 120_000);

afterAll(async () => {
  if (db) expect(await checkLedgerInvariants(db), replay).toEqual([]);
});

it(
  '(a) an operator refund killed while Stripe holds its answer: the retry with the same key refunds once',
  tally.counted(async () => {
    const one = await pay(senders[0]!, recipients[0]!, 1000, `risk-${settings.seed}-refund-crash-pay`);
    expect(one, replay).not.toBeNull();
    paid.push(one!);
    const request = refundRequest(one!.transferId, `risk-${settings.seed}-refund-crash`, 400);
    const hung = hungCalls('/v1/refunds');
    stripe.failNext({ method: 'POST', path: '/v1/refunds', fault: 'timeout', when: 'after', count: 10 });
    let answeredEarly: unknown = null;
    const cutOff = callOnce(baseUrl(), request).then((answer) => (answeredEarly = answer));
    await until('peerpay calls /v1/refunds', () => {
      if (answeredEarly) throw new Error(`answered without calling Stripe: ${JSON.stringify(answeredEarly)}`);
      return hungCalls('/v1/refunds') > hung;
    });
    await kill();
    expect(await cutOff).toBeNull();
    stripe.clearFaults();
    await restart();
    const answer = await callUntilAnswered(baseUrl, request);
    tally.operations++;
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const atStripe = stripe.refunds().filter((r) => r.payment_intent === intentOf(one!.transferId)!.id);
    expect(
      atStripe.map((r) => r.amount),
      replay,
    ).toEqual([400]);
    expect(atStripe[0]!.metadata.peerpay_refund_id).toBe(answer.body.refund.id);
  }),
  90_000,
);

/** One seeded card-risk action on a paid transfer; errors Stripe or peerpay answer with are part of the game. */
async function riskAction(random: () => number, keyPrefix: string, n: number): Promise<void> {
  const target = paid[Math.floor(random() * paid.length)];
  const intent = target === undefined ? undefined : intentOf(target.transferId);
  const roll = random();
  try {
    if (target && intent && roll < 0.2) stripe.openDispute(intent.id);
    else if (roll < 0.35) {
      const open = stripe.disputes().filter((d) => d.status === 'needs_response');
      const dispute = open[Math.floor(random() * open.length)];
      if (dispute) stripe.closeDispute(dispute.id, random() < 0.5 ? 'won' : 'lost');
    } else if (target && intent && roll < 0.5) stripe.refundFromDashboard(intent.id, { amount: 50 + Math.floor(random() * 100) });
    else if (target && roll < 0.65) {
      await callUntilAnswered(baseUrl, refundRequest(target.transferId, `${keyPrefix}-refund-${n}`, 50 + Math.floor(random() * 100)));
    } else if (roll < 0.75) {
      const succeeded = stripe.refunds().filter((r) => r.status === 'succeeded');
      const refund = succeeded[Math.floor(random() * succeeded.length)];
      if (refund) stripe.failRefund(refund.id);
    } else {
      // An old event again: a duplicate, and out of order with whatever came since.
      const events = stripe.events().filter((e) => e.type.startsWith('refund.') || e.type.startsWith('charge.'));
      const event = events[Math.floor(random() * events.length)];
      if (event) await stripe.deliver(event.id, { times: 1 + Math.floor(random() * 2) });
    }
  } catch (error) {
    // The stand-in refusing (already disputed, nothing left to refund) is Stripe saying no.
    if (!(error instanceof Error) || !/Stripe stand-in|refunded|charged back|greater than/.test(error.message)) throw error;
  }
  tally.operations++;
}

it(
  `(b) transfers, payouts, refunds, disputes and their webhooks twice and out of order, with SIGKILLs: booked once each (seed ${settings.seed})`,
  tally.counted(async () => {
    const random = randomFor('live-card-risk-crash');
    const plan = byProfile({ short: { perSender: 4, actions: 12, kills: 2 }, full: { perSender: 15, actions: 80, kills: 8 } });
    const keyPrefix = `risk-${settings.seed}`;
    let running = true;
    let progress = 0;
    const transfers = Promise.all(
      senders.map(async (sender, s) => {
        for (let n = 0; n < plan.perSender; n++) {
          const done = await pay(
            sender,
            recipients[Math.floor(random() * recipients.length)]!,
            500 + Math.floor(random() * 1500),
            `${keyPrefix}-${s}-${n}`,
          );
          if (done) paid.push(done);
          progress++;
        }
      }),
    );
    const actions = (async () => {
      for (let n = 0; n < plan.actions; n++) {
        while (paid.length === 0) await sleep(20);
        await riskAction(random, keyPrefix, n);
        progress++;
        await sleep(Math.floor(random() * 100));
      }
    })();
    const total = senders.length * plan.perSender + plan.actions;
    const killPoints = Array.from({ length: plan.kills }, () => Math.floor(total * (0.15 + random() * 0.7))).sort((a, b) => a - b);
    const killer = (async () => {
      for (const point of killPoints) {
        while (running && progress < point) await sleep(5);
        if (!running) return;
        await sleep(Math.floor(random() * 50));
        await kill();
        await sleep(Math.floor(random() * 300));
        await restart();
      }
    })();
    await Promise.all([Promise.all([transfers, actions]).finally(() => (running = false)), killer]);
    if (!service.isRunning()) await restart();
    // What was sent while peerpay was down arrives late; then every card-risk event once more, twice.
    await stripe.webhooksIdle();
    stripe.setWebhookMode('manual');
    await stripe.deliverAll();
    for (const event of stripe.events().filter((e) => !e.type.startsWith('checkout.') && !e.type.startsWith('account.')))
      await stripe.deliver(event.id, { times: 2 });
    await sleep(3000); // holds end, payouts run
    const violations = [...(await cardRiskMismatches(db, stripe)), ...(await takenTwice()), ...(await positionsOff())];
    tally.violations += violations.length;
    if (violations.length > 0) {
      // Both sides, for the replay: what Stripe has and what peerpay booked.
      const booked = async (table: 'refunds' | 'disputes') => (await sql`select * from ${sql.table(table)}`.execute(db)).rows;
      console.log(
        `live-card-risk-crash Stripe refunds: ${JSON.stringify(stripe.refunds().map((r) => [r.id, r.payment_intent, r.amount, r.status]))}`,
      );
      console.log(
        `live-card-risk-crash Stripe disputes: ${JSON.stringify(stripe.disputes().map((d) => [d.id, d.payment_intent, d.amount, d.status]))}`,
      );
      console.log(
        `live-card-risk-crash peerpay refunds: ${JSON.stringify(await booked('refunds'), (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`,
      );
      console.log(
        `live-card-risk-crash peerpay disputes: ${JSON.stringify(await booked('disputes'), (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`,
      );
    }
    console.log(
      `live-card-risk-crash (seed ${settings.seed}): ${paid.length} transfers, ${stripe.refunds().length} refunds, ${stripe.disputes().length} disputes, ${counts.kills} kills`,
    );
    expect(violations, replay).toEqual([]);
  }),
  byProfile({ short: 150_000, full: 900_000 }),
);

/** Per transfer: what refunds (not failed) and open or lost disputes took back is at most what it paid. */
async function takenTwice(): Promise<string[]> {
  const rows = await sql<{ id: string; amount: string; refunded: string; disputed: string }>`
    select t.id, t.amount::text,
      coalesce((select sum(r.amount) from refunds r where r.transfer_id = t.id and r.status <> 'failed'), 0)::text as refunded,
      coalesce((select sum(d.taken) from disputes d where d.transfer_id = t.id and d.status <> 'won'), 0)::text as disputed
    from fiat_transfers t`.execute(db);
  return rows.rows
    .filter((r) => BigInt(r.refunded) + BigInt(r.disputed) > BigInt(r.amount))
    .map((r) => `transfer ${r.id} of ${r.amount}: refunded ${r.refunded} and disputed ${r.disputed}`);
}

/** Each recipient: received − taken back = available + held + pending + paid out at Stripe − owed. */
async function positionsOff(): Promise<string[]> {
  const problems: string[] = [];
  for (const recipient of recipients) {
    const theirs = paid.filter((p) => p.recipient === recipient);
    const ids = theirs.map((p) => p.transferId);
    const received = theirs.reduce((sum, p) => sum + p.cents, 0);
    const taken =
      ids.length === 0
        ? 0
        : Number(
            (
              await sql<{ n: string }>`select (
                coalesce((select sum(amount) from refunds where status <> 'failed' and transfer_id in (${sql.join(ids)})), 0) +
                coalesce((select sum(taken) from disputes where status <> 'won' and transfer_id in (${sql.join(ids)})), 0))::text as n`.execute(
                db,
              )
            ).rows[0]!.n,
          );
    const balance = (await must('GET', '/balance', { key: recipient.key })).balances.find(
      (b: { currency: string }) => b.currency === 'USD',
    );
    const account = stripe.accounts().find((a) => a.email === recipient.email)!.id;
    const paidOut = stripe
      .transfers()
      .filter((t) => t.destination === account)
      .reduce((sum, t) => sum + t.amount - t.amount_reversed, 0);
    const position = cents(balance.available) + cents(balance.held) + cents(balance.pending) + paidOut - cents(balance.owed);
    if (position !== received - taken)
      problems.push(
        `${recipient.handle}: received ${received}, taken back ${taken}, but holds ${position} (${JSON.stringify(balance)}, paid out ${paidOut})`,
      );
  }
  return problems;
}
