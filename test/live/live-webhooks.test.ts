// Live mode: Stripe's webhooks delivered twice, out of order, late or never, and forged. Each event
// is applied once (by its id, in one transaction with its effect); an event about something already
// recorded changes nothing; and what no webhook confirmed is read back from Stripe after 15 minutes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { runJobsOnce } from '../../src/jobs/job-runner.js';
import { bindJob } from '../../src/jobs/job.js';
import { achSettlementJob } from '../../src/jobs/ach-settlement-job.js';
import { setupReconciliationJob } from '../../src/jobs/setup-reconciliation-job.js';
import { expectProblem, registerUser, type TestUser } from '../helpers/test-server.js';
import { balances, moneySnapshot, send } from '../helpers/fiat.js';
import { lastPathSegment, liveModeAvailable, LIVE_MODE_NEEDS, startLiveWorld, type LiveWorld } from '../helpers/live-mode.js';
import { runsIf } from '../helpers/runs-if.js';

const MINUTE_MS = 60_000;

function eventBody(id: string, type: string, data: unknown): string {
  return JSON.stringify({
    id,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    data,
    livemode: false,
    api_version: null,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
  });
}

describe.runIf(runsIf(liveModeAvailable(), LIVE_MODE_NEEDS))('live mode: Stripe webhooks', () => {
  let world: LiveWorld;
  let payer: TestUser;
  let payee: TestUser;

  beforeAll(async () => {
    world = await startLiveWorld({ webhookMode: 'manual' });
    [payer, payee] = [await registerUser(world.server), await registerUser(world.server)];
  }, 120_000);

  afterAll(async () => {
    if (!world) return;
    expect(await checkLedgerInvariants(world.server.deps.db)).toEqual([]);
    await world.close();
  });

  const webhook = (body: string, signature?: string) =>
    fetch(`${world.server.url}/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
      body,
    });

  /** Peerpay's clock in unix seconds: the tests move it, and the stand-in signs with it. */
  const nowSeconds = () => Math.floor(world.clock.now().getTime() / 1000);

  async function cardSetupLink(user: TestUser): Promise<string> {
    const link = await world.server.request('POST', '/agent/setup-link', { key: user.key });
    return lastPathSegment(link.body.url);
  }

  async function processorEvents(): Promise<number> {
    const rows = await sql<{ n: string }>`select count(*)::text as n from processor_events`.execute(world.server.deps.db);
    return Number(rows.rows[0]!.n);
  }

  it('a missed checkout.session.completed is read back from Stripe after 15 minutes; the late webhook then changes nothing', async () => {
    const sessionId = await cardSetupLink(payer);
    world.stripe.completeCheckoutSession(sessionId, { paymentMethod: 'pm_card_visa' });
    // Not delivered: no card yet, and before 15 minutes the job does not ask Stripe.
    expectProblem(
      await send(world.server, payer, { recipientHandle: payee.handle, amount: 5, currency: 'USD' }),
      402,
      'card_setup_required',
    );
    await runJobsOnce(world.server.deps, undefined, [bindJob(setupReconciliationJob, world.server.deps)]);
    expect(world.stripe.requests().filter((r) => r.path === `/v1/checkout/sessions/${sessionId}`)).toHaveLength(0);
    world.clock.advance(16 * MINUTE_MS);
    await runJobsOnce(world.server.deps, undefined, [bindJob(setupReconciliationJob, world.server.deps)]);
    expect(world.stripe.requests().filter((r) => r.method === 'GET' && r.path === `/v1/checkout/sessions/${sessionId}`)).toHaveLength(1);
    const sent = await send(world.server, payer, { recipientHandle: payee.handle, amount: 5, currency: 'USD' });
    expect(sent.status, sent.text).toBe(200);
    // The webhook arrives after all: 200, nothing changes (the link is used).
    const before = await moneySnapshot(world.server);
    const late = world.stripe.pendingWebhooks().find((e) => e.type === 'checkout.session.completed')!;
    const attempts = await world.stripe.deliver(late.id);
    expect(attempts[0]!.status).toBe(200);
    expect(await moneySnapshot(world.server)).toBe(before);
  });

  async function deliverEverything(): Promise<void> {
    for (const event of world.stripe.pendingWebhooks()) await world.stripe.deliver(event.id);
  }

  it('duplicate deliveries of a settlement credit the recipient once', async () => {
    await deliverEverything();
    const bankUser = await registerUser(world.server);
    const link = await world.server.request('POST', '/agent/bank-debit-link', { key: bankUser.key });
    expect(link.status, link.text).toBe(200);
    world.stripe.completeCheckoutSession(lastPathSegment(link.body.url), { paymentMethod: 'pm_usBankAccount_success' });
    const setupEvent = world.stripe.pendingWebhooks().find((e) => e.type === 'checkout.session.completed')!;
    await world.stripe.deliver(setupEvent.id, { times: 3 });
    const eventsAfterSetup = await processorEvents();

    const sent = await send(world.server, bankUser, { recipientHandle: payee.handle, amount: 30, currency: 'USD', paymentMethod: 'ach' });
    expect(sent.body.transfer.status).toBe('pending');
    const before = (await balances(world.server, payee)).USD!;
    world.stripe.settleBankDebits();
    // Every event of the debit, in reverse order (succeeded before processing), each three times.
    const pending = world.stripe.pendingWebhooks();
    for (const event of [...pending].reverse()) await world.stripe.deliver(event.id, { times: 3 });
    const after = (await balances(world.server, payee)).USD!;
    expect(BigInt(after.available.replace('.', '')) - BigInt(before.available.replace('.', ''))).toBe(3000n);
    expect(after.pending).toBe('0.00');
    expect(await processorEvents()).toBe(eventsAfterSetup + pending.filter((e) => e.type !== 'payment_intent.processing').length);
    const history = await world.server.request('GET', '/transfers', { key: bankUser.key });
    expect(history.body.transfers[0]).toMatchObject({ id: sent.body.transfer.id, status: 'completed' });
    // Its events, once each although every Stripe event came three times and out of order (DESIGN §13).
    const events = await world.server.request('GET', '/events', { key: bankUser.key });
    expect(events.body.events.map((e: { type: string }) => e.type)).toEqual(['link.completed', 'transfer.sent', 'transfer.completed']);
    expect(events.body.events[0].data).toMatchObject({ kind: 'bank_debit', outcome: 'succeed' });
  });

  it('a missed payment_intent.succeeded is read back at 15 minutes by the settlement job', async () => {
    await deliverEverything();
    const bankUser = await registerUser(world.server);
    const link = await world.server.request('POST', '/agent/bank-debit-link', { key: bankUser.key });
    expect(link.status, link.text).toBe(200);
    world.stripe.completeCheckoutSession(lastPathSegment(link.body.url), { paymentMethod: 'pm_usBankAccount_success' });
    await deliverEverything();
    const sent = await send(world.server, bankUser, { recipientHandle: payee.handle, amount: 12, currency: 'USD', paymentMethod: 'ach' });
    const intentId = world.stripe.paymentIntents().find((pi) => pi.metadata.peerpay_transfer_id === sent.body.transfer.id)!.id;
    world.stripe.settleBankDebits([intentId]);
    // Never delivered. At once, the job does not look; 15 minutes on, it reads the PaymentIntent.
    await runJobsOnce(world.server.deps, undefined, [bindJob(achSettlementJob, world.server.deps)]);
    expect(world.stripe.requests().filter((r) => r.method === 'GET' && r.path === `/v1/payment_intents/${intentId}`)).toHaveLength(0);
    world.clock.advance(16 * MINUTE_MS);
    await runJobsOnce(world.server.deps, undefined, [bindJob(achSettlementJob, world.server.deps)]);
    expect(world.stripe.requests().filter((r) => r.method === 'GET' && r.path === `/v1/payment_intents/${intentId}`)).toHaveLength(1);
    const history = await world.server.request('GET', '/transfers', { key: bankUser.key });
    expect(history.body.transfers[0]).toMatchObject({ id: sent.body.transfer.id, status: 'completed' });
    // The webhook, late, changes nothing.
    const before = await moneySnapshot(world.server);
    await deliverEverything();
    expect(await moneySnapshot(world.server)).toBe(before);
  });

  it('refuses forged, tampered, stale and unsigned deliveries with 400 invalid_signature and changes nothing', async () => {
    await deliverEverything();
    const event = world.stripe.events('payment_intent.succeeded')[0]!;
    const payload = world.stripe.eventPayload(event.id);
    const before = await moneySnapshot(world.server);
    const eventsBefore = await processorEvents();
    const cases: [string, Response][] = [
      ['unsigned', await webhook(payload)],
      ['wrong secret', await webhook(payload, world.stripe.signPayload(payload, { secret: 'whsec_d3Jvbmc=' }))],
      [
        'stale (10 minutes old)',
        await webhook(payload, world.stripe.signPayload(payload, { timestamp: Math.floor(Date.now() / 1000) - 600 })),
      ],
      ['tampered body', await webhook(payload.replace('"succeeded"', '"canceled"'), world.stripe.signPayload(payload))],
      ['garbage header', await webhook(payload, 'nonsense')],
      // Stripe's verifier looks only at the past; ten minutes ahead is as far out as ten minutes behind.
      ['dated 10 minutes in the future', await webhook(payload, world.stripe.signPayload(payload, { timestamp: nowSeconds() + 600 }))],
    ];
    for (const [name, response] of cases) {
      expect(response.status, name).toBe(400);
      expect((await response.json()).code, name).toBe('invalid_signature');
    }
    expect(await moneySnapshot(world.server)).toBe(before);
    expect(await processorEvents()).toBe(eventsBefore);
  });

  it('an event type peerpay does not act on is acknowledged with 200 and ignored', async () => {
    const payload = JSON.stringify({
      id: 'evt_unknown_type',
      object: 'event',
      type: 'customer.created',
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: 'cus_x', object: 'customer' } },
      livemode: false,
      api_version: null,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    });
    const response = await webhook(payload, world.stripe.signPayload(payload));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true });
  });

  it('a signature dated within the tolerance ahead (clock skew) is accepted', async () => {
    const payload = eventBody('evt_skewed_clock', 'customer.created', { object: { id: 'cus_x', object: 'customer' } });
    const response = await webhook(payload, world.stripe.signPayload(payload, { timestamp: nowSeconds() + 120 }));
    expect(response.status).toBe(200);
  });

  it('a well-signed event whose object is missing or unknown answers 200 with an error log and changes nothing', async () => {
    await deliverEverything();
    const before = await moneySnapshot(world.server);
    const eventsBefore = await processorEvents();
    const cases: [string, string][] = [
      ['no data.object', eventBody('evt_no_object', 'payment_intent.succeeded', {})],
      ['no data at all', JSON.stringify({ id: 'evt_no_data', object: 'event', type: 'charge.dispute.created' })],
      ['an object without an id', eventBody('evt_no_id', 'account.updated', { object: { object: 'account', payouts_enabled: true } })],
      [
        'a SetupIntent Stripe does not have',
        eventBody('evt_missing_setup_intent', 'checkout.session.completed', {
          object: { id: 'cs_test_unknown', object: 'checkout.session', mode: 'setup', status: 'complete', setup_intent: 'seti_unknown' },
        }),
      ],
      [
        'a dispute naming no PaymentIntent',
        eventBody('evt_dispute_without_intent', 'charge.dispute.created', {
          object: {
            id: 'dp_orphan',
            object: 'dispute',
            amount: 500,
            currency: 'usd',
            reason: 'fraudulent',
            status: 'needs_response',
            payment_intent: null,
            charge: 'ch_x',
            balance_transactions: [],
          },
        }),
      ],
      [
        'an early fraud warning on a charge Stripe does not have',
        eventBody('evt_warning_unknown_charge', 'radar.early_fraud_warning.created', {
          object: { id: 'issfr_x', object: 'radar.early_fraud_warning', charge: 'ch_unknown', fraud_type: 'misc' },
        }),
      ],
    ];
    for (const [name, payload] of cases) {
      const logsBefore = world.server.logs.length;
      const response = await webhook(payload, world.stripe.signPayload(payload));
      expect(response.status, `${name}: ${await response.clone().text()}`).toBe(200);
      expect(await response.json(), name).toEqual({ received: true });
      const logged = world.server.logs.slice(logsBefore).map((line) => JSON.parse(line) as { level: number; msg: string });
      expect(
        logged.some((line) => line.level >= 50 && line.msg.includes('malformed')),
        name,
      ).toBe(true);
    }
    expect(await moneySnapshot(world.server)).toBe(before);
    expect(await processorEvents()).toBe(eventsBefore);
  });
});
