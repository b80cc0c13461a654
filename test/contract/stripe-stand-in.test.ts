// The Stripe stand-in's contract. The API scenarios (stripe-api-scenarios.ts) run through the
// official client against the stand-in, and also against Stripe's real test mode when
// STRIPE_CONTRACT_SECRET_KEY is set, so the stand-in cannot drift into accepting what Stripe refuses.
// The rest pins what only the stand-in has: its test controls, pages, webhooks, faults and policies.
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  startStripeStandIn,
  startWebhookReceiver,
  type StripeStandIn,
  type TestPaymentMethod,
  type WebhookReceiver,
} from '../fakes/stripe/index.js';
import { describeStripeCardRiskContract } from './stripe-api-card-risk-scenarios.js';
import { caught, describeStripeApiContract, loose, nowSeconds, rawPost, uniqueKey } from './stripe-api-scenarios.js';
import {
  type ContractTarget,
  realStripeTarget,
  STAND_IN_OTHER_KEY,
  STAND_IN_SECRET_KEY,
  STAND_IN_WEBHOOK_SECRET,
  standInTarget,
} from './stripe-targets.js';

describe('Stripe API contract — stand-in', () => {
  let target: ContractTarget;
  beforeAll(async () => {
    ({ target } = await standInTarget());
  });
  afterAll(() => target.close());
  describeStripeApiContract(() => target);
  describeStripeCardRiskContract(() => target);
});

const realKey = process.env.STRIPE_CONTRACT_SECRET_KEY;
if (realKey !== undefined && realKey !== '') {
  describe('Stripe API contract — Stripe test mode', () => {
    describeStripeApiContract(() => realStripeTarget(realKey));
    describeStripeCardRiskContract(() => realStripeTarget(realKey));
  });
}

describe('Stripe stand-in', () => {
  let target: ContractTarget;
  let standIn: StripeStandIn;
  let client: Stripe;
  beforeAll(async () => {
    ({ target, standIn } = await standInTarget());
    client = target.client();
  });
  afterAll(() => target.close());
  afterEach(() => {
    standIn.clearFaults();
    standIn.setWebhookMode('manual');
    standIn.setWebhookUrl(null);
  });

  const newCustomer = () => client.customers.create({ email: 'payer@peerpay.test', metadata: { peerpay_account_id: 'acc_payer' } });
  const setupSession = async (customer: string, kind: 'card' | 'bank') =>
    client.checkout.sessions.create({
      mode: 'setup',
      payment_method_types: [kind === 'card' ? 'card' : 'us_bank_account'],
      ...(kind === 'bank' ? { currency: 'usd' } : {}),
      customer,
      success_url: 'https://peerpay.test/done?session={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://peerpay.test/cancel',
      expires_at: nowSeconds() + 24 * 3600 - 60,
      metadata: { peerpay_link_id: 'link_x' },
    });
  const savedBankAccount = async (behaviour: TestPaymentMethod) => {
    const customer = await newCustomer();
    const session = await setupSession(customer.id, 'bank');
    const done = standIn.completeCheckoutSession(session.id, { paymentMethod: behaviour });
    return { customer: customer.id, paymentMethod: done.paymentMethod.id, mandate: done.mandate?.id ?? '' };
  };
  const achDebit = (saved: { customer: string; paymentMethod: string; mandate: string }, extra: Record<string, unknown> = {}) =>
    client.paymentIntents.create(
      loose<Stripe.PaymentIntentCreateParams>({
        amount: 5000,
        currency: 'usd',
        customer: saved.customer,
        payment_method: saved.paymentMethod,
        payment_method_types: ['us_bank_account'],
        mandate: saved.mandate,
        confirm: true,
        off_session: true,
        metadata: { peerpay_transfer_id: 'tx_ach' },
        ...extra,
      }),
    );
  const onboardedAccount = async () => {
    const account = await client.accounts.create({
      type: 'express',
      email: 'payee@peerpay.test',
      capabilities: { transfers: { requested: true } },
    });
    return standIn.completeOnboarding(account.id);
  };

  describe('policies stricter than Stripe needs to be', () => {
    it('refuses an upper-case currency (Stripe documents lower-case codes)', async () => {
      const error = await caught(
        client.paymentIntents.create({ amount: 1000, currency: 'USD', payment_method_types: ['card'] }),
        Stripe.errors.StripeInvalidRequestError,
      );
      expect(error).toMatchObject({ statusCode: 400, param: 'currency' });
    });

    it('names the parameter: off_session without confirm, a wrong boolean', async () => {
      expect(
        await caught(
          client.paymentIntents.create({ amount: 1000, currency: 'usd', off_session: true }),
          Stripe.errors.StripeInvalidRequestError,
        ),
      ).toMatchObject({ param: 'off_session' });
      expect(
        await caught(
          client.paymentIntents.create(loose({ amount: 1000, currency: 'usd', confirm: 'yes' })),
          Stripe.errors.StripeInvalidRequestError,
        ),
      ).toMatchObject({
        message: 'Invalid boolean: yes',
      });
    });

    it('refuses a bank-debit setup session without currency=usd', async () => {
      const customer = await newCustomer();
      const base = {
        mode: 'setup' as const,
        payment_method_types: ['us_bank_account' as const],
        customer: customer.id,
        success_url: 'https://peerpay.test/done',
      };
      expect(await caught(client.checkout.sessions.create(base), Stripe.errors.StripeInvalidRequestError)).toMatchObject({
        code: 'parameter_missing',
        param: 'currency',
      });
      expect(
        await caught(client.checkout.sessions.create({ ...base, currency: 'eur' }), Stripe.errors.StripeInvalidRequestError),
      ).toMatchObject({ param: 'currency' });
    });

    it('answers 404 resource_missing for an unknown account, and for an unknown URL', async () => {
      expect(await caught(client.accounts.retrieve('acct_doesnotexist00'), Stripe.errors.StripeInvalidRequestError)).toMatchObject({
        statusCode: 404,
        code: 'resource_missing',
      });
      const response = await fetch(`${standIn.apiBase}/v1/charges`, { headers: { authorization: `Bearer ${STAND_IN_SECRET_KEY}` } });
      expect(response.status).toBe(404);
      expect(response.headers.get('request-id')).toMatch(/^req_/);
    });

    it('refuses a value sent both as a value and as a hash', async () => {
      const response = await rawPost(target, '/v1/customers', 'metadata=x&metadata[a]=b');
      expect(response.status).toBe(400);
      expect(response.json).toMatchObject({ error: { type: 'invalid_request_error', param: 'metadata' } });
    });
  });

  describe('checkout completion', () => {
    it('the control saves a card: setup intent succeeded with a payment method, session complete, event emitted', async () => {
      const customer = await newCustomer();
      const session = await setupSession(customer.id, 'card');
      const done = standIn.completeCheckoutSession(session.id, { paymentMethod: 'pm_card_visa' });
      expect(done.mandate).toBeNull();
      const intent = await client.setupIntents.retrieve(String(session.setup_intent));
      expect(intent).toMatchObject({
        status: 'succeeded',
        customer: customer.id,
        payment_method: done.paymentMethod.id,
        mandate: null,
        usage: 'off_session',
      });
      expect(intent.payment_method).toMatch(/^pm_/);
      expect((await client.checkout.sessions.retrieve(session.id)).status).toBe('complete');
      const event = standIn.events('checkout.session.completed').find((e) => (e.data.object as { id: string }).id === session.id);
      expect(event?.data.object).toMatchObject({
        status: 'complete',
        setup_intent: session.setup_intent,
        metadata: { peerpay_link_id: 'link_x' },
      });
      expect(event?.request).toEqual({ id: null, idempotency_key: null });
    });

    it('a bank account comes with a mandate', async () => {
      const saved = await savedBankAccount('pm_usBankAccount_success');
      expect(saved.mandate).toMatch(/^mandate_/);
      const session = standIn.checkoutSessions().find((s) => s.customer === saved.customer);
      const intent = await client.setupIntents.retrieve(String(session?.setup_intent));
      expect(intent).toMatchObject({
        status: 'succeeded',
        payment_method: saved.paymentMethod,
        mandate: saved.mandate,
        payment_method_types: ['us_bank_account'],
      });
    });

    it('the page offers the session’s payment methods and its button completes it like the control', async () => {
      const customer = await newCustomer();
      const session = await setupSession(customer.id, 'card');
      const page = await fetch(String(session.url));
      const html = await page.text();
      expect(page.status).toBe(200);
      expect(html).toContain('value="pm_card_visa"');
      expect(html).toContain('value="pm_card_authenticationRequired"');
      expect(html).not.toContain('pm_usBankAccount_success');
      const submitted = await fetch(String(session.url), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'payment_method=pm_card_visa',
        redirect: 'manual',
      });
      expect(submitted.status).toBe(303);
      expect(submitted.headers.get('location')).toBe(`https://peerpay.test/done?session=${session.id}`);
      const intent = await client.setupIntents.retrieve(String(session.setup_intent));
      expect(intent.status).toBe('succeeded');
      expect((await fetch(String(session.url))).status).toBe(410);
    });

    it('an expired session cannot be completed', async () => {
      const customer = await newCustomer();
      const session = await setupSession(customer.id, 'card');
      standIn.expireCheckoutSession(session.id);
      expect(() => standIn.completeCheckoutSession(session.id, { paymentMethod: 'pm_card_visa' })).toThrow(/expired/);
      expect(await client.checkout.sessions.retrieve(session.id)).toMatchObject({ status: 'expired', url: null });
      expect((await client.setupIntents.retrieve(String(session.setup_intent))).status).toBe('canceled');
    });

    it('a session passes its expires_at by the stand-in clock', async () => {
      let now = Date.now();
      const local = await startStripeStandIn({ secretKey: STAND_IN_SECRET_KEY, webhookSecret: STAND_IN_WEBHOOK_SECRET, now: () => now });
      try {
        const localClient = new Stripe(STAND_IN_SECRET_KEY, { ...local.clientConfig(), maxNetworkRetries: 0 });
        const customer = await localClient.customers.create({ email: 'clock@peerpay.test' });
        const session = await localClient.checkout.sessions.create({
          mode: 'setup',
          payment_method_types: ['card'],
          customer: customer.id,
          success_url: 'https://peerpay.test/done',
        });
        expect(session.expires_at - session.created).toBe(24 * 3600);
        now += 24 * 3600 * 1000;
        expect((await localClient.checkout.sessions.retrieve(session.id)).status).toBe('expired');
      } finally {
        await local.close();
      }
    });
  });

  describe('onboarding and transfers', () => {
    it('the onboarding page completes onboarding: payouts enabled, transfers active, account.updated', async () => {
      const account = await client.accounts.create({
        type: 'express',
        email: 'payee@peerpay.test',
        capabilities: { transfers: { requested: true } },
        metadata: { peerpay_account_id: 'acc_p' },
      });
      const link = await client.accountLinks.create({
        account: account.id,
        type: 'account_onboarding',
        refresh_url: 'https://peerpay.test/refresh',
        return_url: 'https://peerpay.test/return',
      });
      expect((await fetch(link.url)).status).toBe(200);
      const submitted = await fetch(link.url, { method: 'POST', redirect: 'manual' });
      expect(submitted.status).toBe(303);
      expect(submitted.headers.get('location')).toBe('https://peerpay.test/return');
      const after = await client.accounts.retrieve(account.id);
      expect(after).toMatchObject({ payouts_enabled: true, details_submitted: true, capabilities: { transfers: 'active' } });
      const event = standIn.events('account.updated').find((e) => (e.data.object as { id: string }).id === account.id);
      expect(event?.data.object).toMatchObject({ payouts_enabled: true });
      expect(event?.data.previous_attributes).toMatchObject({ payouts_enabled: false });
      // A used link sends the user to refresh_url for a new one.
      const reused = await fetch(link.url, { redirect: 'manual' });
      expect(reused.headers.get('location')).toBe('https://peerpay.test/refresh');
    });

    it('a transfer to an onboarded account', async () => {
      const account = await onboardedAccount();
      const transfer = await client.transfers.create({
        amount: 2500,
        currency: 'eur',
        destination: account.id,
        transfer_group: 'payout_9',
        metadata: { peerpay_payout_id: 'po_9' },
      });
      expect(transfer).toMatchObject({
        object: 'transfer',
        amount: 2500,
        currency: 'eur',
        destination: account.id,
        transfer_group: 'payout_9',
        metadata: { peerpay_payout_id: 'po_9' },
        reversed: false,
      });
      expect(transfer.id).toMatch(/^tr_/);
      expect(standIn.transfers().map((t) => t.id)).toContain(transfer.id);
    });

    it('refuses a destination that does not exist', async () => {
      const error = await caught(
        client.transfers.create({ amount: 100, currency: 'usd', destination: 'acct_nothere000000' }),
        Stripe.errors.StripeInvalidRequestError,
      );
      expect(error).toMatchObject({ code: 'resource_missing', param: 'destination' });
    });
  });

  describe('ACH debits', () => {
    it('succeed: processing, then succeeded when settled', async () => {
      const saved = await savedBankAccount('pm_usBankAccount_success');
      const intent = await achDebit(saved);
      expect(intent.status).toBe('processing');
      expect(standIn.events('payment_intent.processing').some((e) => (e.data.object as { id: string }).id === intent.id)).toBe(true);
      expect(standIn.settleBankDebits([intent.id])).toEqual([intent.id]);
      expect(await client.paymentIntents.retrieve(intent.id)).toMatchObject({ status: 'succeeded', amount_received: 5000 });
      expect(standIn.events('payment_intent.succeeded').some((e) => (e.data.object as { id: string }).id === intent.id)).toBe(true);
    });

    it('are returned for insufficient funds: processing, then requires_payment_method', async () => {
      const saved = await savedBankAccount('pm_usBankAccount_insufficientFunds');
      const intent = await achDebit(saved);
      expect(intent.status).toBe('processing');
      expect(standIn.settleBankDebits()).toContain(intent.id);
      const after = await client.paymentIntents.retrieve(intent.id);
      expect(after.status).toBe('requires_payment_method');
      expect(after.last_payment_error?.code).toBe('insufficient_funds');
      const failed = standIn.events('payment_intent.payment_failed').find((e) => (e.data.object as { id: string }).id === intent.id);
      expect(failed).toBeDefined();
    });

    it('need the mandate off-session, and only the one saved with the bank account', async () => {
      const saved = await savedBankAccount('pm_usBankAccount_success');
      const other = await savedBankAccount('pm_usBankAccount_success');
      expect(await caught(achDebit(saved, { mandate: undefined }), Stripe.errors.StripeInvalidRequestError)).toMatchObject({
        param: 'mandate',
      });
      expect(await caught(achDebit(saved, { mandate: other.mandate }), Stripe.errors.StripeInvalidRequestError)).toMatchObject({
        code: 'payment_intent_mandate_invalid',
      });
      expect(await caught(achDebit(saved, { currency: 'eur' }), Stripe.errors.StripeInvalidRequestError)).toMatchObject({
        param: 'currency',
      });
    });
  });

  describe('webhooks', () => {
    let receiver: WebhookReceiver;
    beforeAll(async () => {
      receiver = await startWebhookReceiver();
    });
    afterAll(() => receiver.close());
    afterEach(() => receiver.reset());

    const verify = (rawBody: string, signature: string | undefined) =>
      Stripe.webhooks.constructEvent(rawBody, signature ?? '', STAND_IN_WEBHOOK_SECRET);

    it('auto mode: delivered right after the change, signed as Stripe signs, naming the request', async () => {
      standIn.setWebhookUrl(receiver.url);
      standIn.setWebhookMode('auto');
      const customer = await newCustomer();
      const card = await target.savedCard(customer.id, 'succeeds');
      const key = uniqueKey('webhook');
      const intent = await client.paymentIntents.create(
        {
          amount: 700,
          currency: 'gbp',
          customer: customer.id,
          payment_method: card,
          payment_method_types: ['card'],
          confirm: true,
          off_session: true,
        },
        { idempotencyKey: key },
      );
      await standIn.webhooksIdle();
      const events = receiver.received.map((r) => verify(r.rawBody, r.signature));
      expect(events.map((e) => e.type)).toEqual(['checkout.session.completed', 'payment_intent.succeeded']);
      const succeeded = events[1];
      expect(succeeded).toMatchObject({
        object: 'event',
        api_version: Stripe.API_VERSION,
        livemode: false,
        pending_webhooks: 1,
        request: { id: intent.lastResponse.requestId, idempotency_key: key },
      });
      expect(succeeded?.id).toMatch(/^evt_/);
      expect(succeeded?.data.object).toMatchObject({ id: intent.id, status: 'succeeded' });
      expect(standIn.pendingWebhooks().map((e) => e.id)).not.toContain(succeeded?.id);
    });

    it('auto mode: a failed delivery is retried, a bounded number of times', async () => {
      standIn.setWebhookUrl(receiver.url);
      standIn.setWebhookMode('auto');
      receiver.answerNext(500, 503);
      const first = await onboardedAccount();
      await standIn.webhooksIdle();
      const eventId = standIn.events('account.updated').find((e) => (e.data.object as { id: string }).id === first.id)?.id ?? '';
      expect(standIn.webhookAttempts(eventId).map((a) => a.status)).toEqual([500, 503, 200]);
      expect(standIn.pendingWebhooks().map((e) => e.id)).not.toContain(eventId);

      receiver.answerNext(500, 500, 500, 500);
      const second = await onboardedAccount();
      await standIn.webhooksIdle();
      const failing = standIn.events('account.updated').find((e) => (e.data.object as { id: string }).id === second.id)?.id ?? '';
      expect(standIn.webhookAttempts(failing).map((a) => a.status)).toEqual([500, 500, 500, 500]);
      expect(standIn.pendingWebhooks().map((e) => e.id)).toContain(failing);
    });

    it('auto mode: a receiver that is down is recorded as a network error', async () => {
      standIn.setWebhookUrl('http://127.0.0.1:9/webhooks/stripe');
      standIn.setWebhookMode('auto');
      const account = await onboardedAccount();
      await standIn.webhooksIdle();
      const eventId = standIn.events('account.updated').find((e) => (e.data.object as { id: string }).id === account.id)?.id ?? '';
      const attempts = standIn.webhookAttempts(eventId);
      expect(attempts.length).toBe(4);
      expect(attempts.every((a) => a.status === null && a.error !== null)).toBe(true);
    });

    it('manual mode: queued until delivered — in reverse, twice, late or never', async () => {
      standIn.setWebhookUrl(receiver.url);
      const before = new Set(standIn.pendingWebhooks().map((e) => e.id));
      await standIn.deliverAll(); // whatever earlier tests left waiting
      receiver.received.length = 0;
      const a = await onboardedAccount();
      const b = await onboardedAccount();
      const pending = standIn.pendingWebhooks().filter((e) => !before.has(e.id));
      expect(pending.map((e) => (e.data.object as { id: string }).id)).toEqual([a.id, b.id]);
      expect(receiver.received).toHaveLength(0);

      await standIn.deliverAll({ order: 'reverse' });
      expect(receiver.received.map((r) => (verify(r.rawBody, r.signature).data.object as { id: string }).id)).toEqual([b.id, a.id]);
      expect(standIn.pendingWebhooks()).toHaveLength(0);

      receiver.received.length = 0;
      const c = await onboardedAccount();
      const eventC = standIn.pendingWebhooks()[0]?.id ?? '';
      const attempts = await standIn.deliver(eventC, { times: 2 });
      expect(attempts.map((x) => x.status)).toEqual([200, 200]);
      expect(receiver.received).toHaveLength(2);
      expect(receiver.received[0]?.rawBody).toBe(receiver.received[1]?.rawBody);
      expect(verify(receiver.received[1]?.rawBody ?? '', receiver.received[1]?.signature).id).toBe(eventC);
      expect((verify(receiver.received[0]?.rawBody ?? '', receiver.received[0]?.signature).data.object as { id: string }).id).toBe(c.id);

      await onboardedAccount();
      expect(standIn.pendingWebhooks()).toHaveLength(1); // never delivered: stays pending
    });

    it('a wrong secret or an old timestamp is refused by constructEvent', async () => {
      standIn.setWebhookUrl(receiver.url);
      await standIn.deliverAll();
      receiver.received.length = 0;
      await onboardedAccount();
      const eventId = standIn.pendingWebhooks()[0]?.id ?? '';
      await standIn.deliver(eventId, { signWith: 'whsec_not_the_right_one' });
      await standIn.deliver(eventId, { timestamp: nowSeconds() - 600 });
      await standIn.deliver(eventId, { signature: null });
      const [wrongSecret, oldTimestamp, unsigned] = receiver.received;
      expect(() => verify(wrongSecret?.rawBody ?? '', wrongSecret?.signature)).toThrow(Stripe.errors.StripeSignatureVerificationError);
      expect(() => verify(oldTimestamp?.rawBody ?? '', oldTimestamp?.signature)).toThrow(/tolerance/);
      expect(unsigned?.signature).toBeUndefined();
      // Those did not count as deliveries: the event still waits.
      expect(standIn.pendingWebhooks().map((e) => e.id)).toContain(eventId);
      const payload = standIn.eventPayload(eventId);
      expect(verify(payload, standIn.signPayload(payload)).id).toBe(eventId);
    });
  });

  describe('injected faults', () => {
    const customersPath = '/v1/customers';

    it("'before': a 500 and nothing done", async () => {
      const count = standIn.customers().length;
      standIn.failNext({ method: 'POST', path: customersPath, fault: 500, when: 'before' });
      const error = await caught(client.customers.create({ email: 'f@peerpay.test' }), Stripe.errors.StripeAPIError);
      expect(error.statusCode).toBe(500);
      expect(standIn.customers()).toHaveLength(count);
      expect(standIn.requests().at(-1)).toMatchObject({ method: 'POST', path: customersPath, status: 500, fault: 500 });
    });

    it("'after': a 500 although the work was done; a retry with the same key replays it", async () => {
      const key = uniqueKey('after500');
      standIn.failNext({ method: 'POST', path: /^\/v1\/customers$/, fault: 500, when: 'after' });
      await caught(client.customers.create({ email: 'after@peerpay.test' }, { idempotencyKey: key }), Stripe.errors.StripeAPIError);
      const made = standIn.customers().filter((c) => c.email === 'after@peerpay.test');
      expect(made).toHaveLength(1);
      const retried = await client.customers.create({ email: 'after@peerpay.test' }, { idempotencyKey: key });
      expect(retried.id).toBe(made[0]?.id);
      expect(retried.lastResponse.headers['idempotent-replayed']).toBe('true');
    });

    it('429: StripeRateLimitError', async () => {
      standIn.failNext({ path: customersPath, fault: 429, when: 'before' });
      expect((await caught(client.customers.create({ email: 'r@peerpay.test' }), Stripe.errors.StripeRateLimitError)).statusCode).toBe(429);
    });

    it("'timeout': no answer until the client gives up (StripeConnectionError); the charge happened", async () => {
      const customer = await newCustomer();
      const card = await target.savedCard(customer.id, 'succeeds');
      const key = uniqueKey('timeout');
      const params: Stripe.PaymentIntentCreateParams = {
        amount: 900,
        currency: 'usd',
        customer: customer.id,
        payment_method: card,
        confirm: true,
        off_session: true,
      };
      standIn.failNext({ method: 'POST', path: '/v1/payment_intents', fault: 'timeout', when: 'after' });
      const error = await caught(
        target.client({ timeoutMs: 300 }).paymentIntents.create(params, { idempotencyKey: key }),
        Stripe.errors.StripeConnectionError,
      );
      expect(error.message).toMatch(/timeout/);
      const charged = standIn.paymentIntents().filter((p) => p.customer === customer.id);
      expect(charged.map((p) => p.status)).toEqual(['succeeded']);
      const retried = await client.paymentIntents.create(params, { idempotencyKey: key });
      expect(retried.id).toBe(charged[0]?.id);
    });

    it("'reset': stripe-node retries a reset connection once by itself (same key), so two resets reach the caller", async () => {
      standIn.failNext({ method: 'POST', path: customersPath, fault: 'reset', when: 'after' });
      const survived = await client.customers.create({ email: 'reset-once@peerpay.test' });
      expect(survived.lastResponse.headers['idempotent-replayed']).toBe('true');
      expect(standIn.customers().filter((c) => c.email === 'reset-once@peerpay.test')).toHaveLength(1);

      standIn.failNext({ method: 'POST', path: customersPath, fault: 'reset', when: 'after', count: 2 });
      await caught(client.customers.create({ email: 'reset-twice@peerpay.test' }), Stripe.errors.StripeConnectionError);
      expect(standIn.customers().filter((c) => c.email === 'reset-twice@peerpay.test')).toHaveLength(1);
      expect(standIn.pendingFaults()).toHaveLength(0);
    });
  });

  describe('idempotency scope and the request log', () => {
    it('keys belong to the secret key that used them', async () => {
      const key = uniqueKey('scope');
      const mine = await client.customers.create({ email: 'scope@peerpay.test' }, { idempotencyKey: key });
      const theirs = await target
        .client({ secretKey: STAND_IN_OTHER_KEY })
        .customers.create({ email: 'scope@peerpay.test' }, { idempotencyKey: key });
      expect(theirs.id).not.toBe(mine.id);
      expect(theirs.lastResponse.headers['idempotent-replayed']).toBeUndefined();
    });

    it('logs each API request with its key, status and whether it was replayed', async () => {
      const key = uniqueKey('log');
      await client.customers.create({ email: 'log@peerpay.test' }, { idempotencyKey: key });
      await client.customers.create({ email: 'log@peerpay.test' }, { idempotencyKey: key });
      const logged = standIn.requests().filter((r) => r.idempotencyKey === key);
      expect(logged.map((r) => [r.method, r.path, r.status, r.replayed])).toEqual([
        ['POST', '/v1/customers', 200, false],
        ['POST', '/v1/customers', 200, true],
      ]);
      expect(logged[0]?.params).toEqual({ email: 'log@peerpay.test' });
    });
  });
});
