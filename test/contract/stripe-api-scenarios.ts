// The Stripe API behaviour peerpay relies on, as scenarios run through the official client against a
// target (the stand-in, or Stripe's real test mode). Only what holds on real Stripe belongs here;
// stand-in policies and test controls are in stripe-stand-in.test.ts.
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import type { ContractTarget } from './stripe-targets.js';

const HOUR = 3600;

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** The error a call failed with, checked to be of the class stripe-node raises for it. */
export async function caught<E extends Error>(call: Promise<unknown>, kind: abstract new (...args: never[]) => E): Promise<E> {
  let result: unknown;
  try {
    result = await call;
  } catch (error) {
    expect(error).toBeInstanceOf(kind);
    return error as E;
  }
  throw new Error(`expected ${kind.name}, but the call succeeded with ${JSON.stringify(result)}`);
}

/** Parameters the client's types would not let through: how a wrong request is sent on purpose. */
export function loose<T>(params: Record<string, unknown>): T {
  return params as T;
}

export function uniqueKey(label: string): string {
  return `contract-${label}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/** A POST with a hand-written form body, to pin the wire format itself. */
export async function rawPost(
  target: ContractTarget,
  path: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Record<string, unknown>; headers: Headers }> {
  const response = await fetch(`${target.apiBase}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.secretKey}`, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown>, headers: response.headers };
}

export function describeStripeApiContract(getTarget: () => ContractTarget): void {
  const client = () => getTarget().client();
  const newCustomer = () =>
    client().customers.create({ email: `contract-${Date.now()}@peerpay.test`, metadata: { peerpay_account_id: 'acc_contract' } });

  describe('customers', () => {
    it('creates a customer with email and metadata', async () => {
      const customer = await newCustomer();
      expect(customer).toMatchObject({ object: 'customer', livemode: false, metadata: { peerpay_account_id: 'acc_contract' } });
      expect(customer.id).toMatch(/^cus_/);
      expect(customer.email).toMatch(/@peerpay\.test$/);
      expect(typeof customer.created).toBe('number');
      expect(customer.lastResponse.requestId).toMatch(/^req_/);
    });

    it('refuses an unknown parameter, naming it', async () => {
      const error = await caught(
        client().customers.create(loose({ email: 'x@peerpay.test', nickname: 'x' })),
        Stripe.errors.StripeInvalidRequestError,
      );
      expect(error).toMatchObject({ statusCode: 400, code: 'parameter_unknown', param: 'nickname' });
    });

    it('reads bracket notation: metadata[a]=b', async () => {
      const response = await rawPost(
        getTarget(),
        '/v1/customers',
        'email=raw%40peerpay.test&metadata[peerpay_account_id]=acc_raw&metadata%5Bsecond%5D=two',
      );
      expect(response.status).toBe(200);
      expect(response.json).toMatchObject({
        object: 'customer',
        email: 'raw@peerpay.test',
        metadata: { peerpay_account_id: 'acc_raw', second: 'two' },
      });
      expect(response.headers.get('request-id')).toMatch(/^req_/);
    });
  });

  describe('setup-mode checkout sessions', () => {
    it('creates a card setup session with a setup intent waiting for a payment method', async () => {
      const customer = await newCustomer();
      const expiresAt = nowSeconds() + 23 * HOUR;
      const session = await client().checkout.sessions.create({
        mode: 'setup',
        payment_method_types: ['card'],
        customer: customer.id,
        success_url: 'https://peerpay.test/setup/done',
        cancel_url: 'https://peerpay.test/setup/cancel',
        expires_at: expiresAt,
        metadata: { peerpay_link_id: 'link_1' },
      });
      expect(session).toMatchObject({
        object: 'checkout.session',
        mode: 'setup',
        status: 'open',
        customer: customer.id,
        success_url: 'https://peerpay.test/setup/done',
        cancel_url: 'https://peerpay.test/setup/cancel',
        expires_at: expiresAt,
        metadata: { peerpay_link_id: 'link_1' },
        payment_method_types: ['card'],
        livemode: false,
      });
      expect(session.id).toMatch(/^cs_test_/);
      expect(session.url).toMatch(/^https?:\/\//);
      expect(session.setup_intent).toMatch(/^seti_/);

      const again = await client().checkout.sessions.retrieve(session.id);
      expect(again).toMatchObject({ id: session.id, status: 'open', setup_intent: session.setup_intent });
      const intent = await client().setupIntents.retrieve(String(session.setup_intent));
      expect(intent).toMatchObject({
        object: 'setup_intent',
        status: 'requires_payment_method',
        customer: customer.id,
        payment_method: null,
        usage: 'off_session',
      });
    });

    it('creates a bank-debit setup session with currency=usd', async () => {
      const customer = await newCustomer();
      const session = await client().checkout.sessions.create({
        mode: 'setup',
        payment_method_types: ['us_bank_account'],
        currency: 'usd',
        customer: customer.id,
        success_url: 'https://peerpay.test/bank/done',
        expires_at: nowSeconds() + 23 * HOUR,
      });
      expect(session).toMatchObject({ mode: 'setup', status: 'open', payment_method_types: ['us_bank_account'], currency: 'usd' });
    });

    it('reads both array notations: payment_method_types[]=card and payment_method_types[0]=card', async () => {
      const customer = await newCustomer();
      for (const arrayKey of ['payment_method_types[]', 'payment_method_types[0]']) {
        const body = `mode=setup&${arrayKey}=card&customer=${customer.id}&success_url=${encodeURIComponent('https://peerpay.test/done')}`;
        const response = await rawPost(getTarget(), '/v1/checkout/sessions', body);
        expect(response.status).toBe(200);
        expect(response.json.payment_method_types).toEqual(['card']);
      }
    });

    it('refuses expires_at under 30 minutes or over 24 hours away', async () => {
      const customer = await newCustomer();
      for (const expiresAt of [nowSeconds() + 10 * 60, nowSeconds() + 25 * HOUR]) {
        const error = await caught(
          client().checkout.sessions.create({
            mode: 'setup',
            payment_method_types: ['card'],
            customer: customer.id,
            success_url: 'https://peerpay.test/done',
            expires_at: expiresAt,
          }),
          Stripe.errors.StripeInvalidRequestError,
        );
        expect(error).toMatchObject({ statusCode: 400, param: 'expires_at' });
      }
    });

    it('refuses a customer that does not exist', async () => {
      const error = await caught(
        client().checkout.sessions.create({
          mode: 'setup',
          payment_method_types: ['card'],
          customer: 'cus_doesnotexist0',
          success_url: 'https://peerpay.test/done',
        }),
        Stripe.errors.StripeInvalidRequestError,
      );
      expect(error).toMatchObject({ code: 'resource_missing', param: 'customer' });
    });

    it('answers 404 resource_missing for a session that does not exist', async () => {
      const error = await caught(client().checkout.sessions.retrieve('cs_test_doesnotexist'), Stripe.errors.StripeInvalidRequestError);
      expect(error).toMatchObject({ statusCode: 404, code: 'resource_missing' });
    });
  });

  describe('connected accounts and onboarding links', () => {
    it('creates an Express account that cannot be paid out to yet, and an onboarding link valid for 5 minutes', async () => {
      const account = await client().accounts.create({
        type: 'express',
        email: `payee-${Date.now()}@peerpay.test`,
        capabilities: { transfers: { requested: true } },
        metadata: { peerpay_account_id: 'acc_payee' },
      });
      expect(account.id).toMatch(/^acct_/);
      expect(account).toMatchObject({
        object: 'account',
        type: 'express',
        payouts_enabled: false,
        charges_enabled: false,
        details_submitted: false,
        metadata: { peerpay_account_id: 'acc_payee' },
      });
      expect(account.capabilities?.transfers).toBe('inactive');
      expect((await client().accounts.retrieve(account.id)).id).toBe(account.id);

      const link = await client().accountLinks.create({
        account: account.id,
        type: 'account_onboarding',
        refresh_url: 'https://peerpay.test/connect/refresh',
        return_url: 'https://peerpay.test/connect/return',
      });
      expect(link.object).toBe('account_link');
      expect(link.url).toMatch(/^https?:\/\//);
      expect(link.expires_at - link.created).toBe(300);
    });

    it('refuses a transfer to an account that has not finished onboarding', async () => {
      const account = await client().accounts.create({
        type: 'express',
        email: `payee-${Date.now()}@peerpay.test`,
        capabilities: { transfers: { requested: true } },
      });
      const error = await caught(
        client().transfers.create({
          amount: 1000,
          currency: 'usd',
          destination: account.id,
          transfer_group: 'payout_1',
          metadata: { peerpay_payout_id: 'po_1' },
        }),
        Stripe.errors.StripeInvalidRequestError,
      );
      expect(error).toMatchObject({ statusCode: 400, code: 'insufficient_capabilities_for_transfer' });
    });
  });

  describe('payment intents: parameters', () => {
    const intent = (params: Record<string, unknown>) =>
      client().paymentIntents.create(
        loose<Stripe.PaymentIntentCreateParams>({ amount: 1000, currency: 'usd', payment_method_types: ['card'], ...params }),
      );

    it('refuses an unknown parameter', async () => {
      expect(await caught(intent({ tip: '5' }), Stripe.errors.StripeInvalidRequestError)).toMatchObject({
        code: 'parameter_unknown',
        param: 'tip',
      });
    });

    it('refuses an amount that is not an integer', async () => {
      for (const amount of ['12.50', 'ten']) {
        expect(await caught(intent({ amount }), Stripe.errors.StripeInvalidRequestError)).toMatchObject({
          code: 'parameter_invalid_integer',
          param: 'amount',
        });
      }
    });

    it('refuses a boolean that is not true or false', async () => {
      expect(await caught(intent({ confirm: 'yes' }), Stripe.errors.StripeInvalidRequestError)).toMatchObject({
        statusCode: 400,
        param: 'confirm',
      });
    });

    it('refuses a missing amount or currency', async () => {
      const noAmount = await caught(client().paymentIntents.create(loose({ currency: 'usd' })), Stripe.errors.StripeInvalidRequestError);
      expect(noAmount).toMatchObject({ code: 'parameter_missing', param: 'amount' });
      const noCurrency = await caught(client().paymentIntents.create(loose({ amount: 1000 })), Stripe.errors.StripeInvalidRequestError);
      expect(noCurrency).toMatchObject({ code: 'parameter_missing', param: 'currency' });
    });

    it("applies Stripe's minimum charge amounts per currency (JPY is zero-decimal)", async () => {
      const tooSmall: Array<[string, number]> = [
        ['usd', 49],
        ['eur', 49],
        ['gbp', 29],
        ['jpy', 49],
      ];
      for (const [currency, amount] of tooSmall) {
        const error = await caught(intent({ currency, amount }), Stripe.errors.StripeInvalidRequestError);
        expect(error).toMatchObject({ statusCode: 400, code: 'amount_too_small', param: 'amount' });
      }
      const enough: Array<[string, number]> = [
        ['usd', 50],
        ['eur', 50],
        ['gbp', 30],
        ['jpy', 50],
      ];
      for (const [currency, amount] of enough) {
        const created = await intent({ currency, amount });
        expect(created).toMatchObject({ object: 'payment_intent', amount, currency, status: 'requires_payment_method' });
      }
    });

    it('refuses off_session without confirm=true', async () => {
      const customer = await newCustomer();
      const card = await getTarget().savedCard(customer.id, 'succeeds');
      const error = await caught(
        intent({ customer: customer.id, payment_method: card, off_session: true }),
        Stripe.errors.StripeInvalidRequestError,
      );
      expect(error.statusCode).toBe(400);
    });

    it('refuses a payment method that belongs to another customer', async () => {
      const owner = await newCustomer();
      const other = await newCustomer();
      const card = await getTarget().savedCard(owner.id, 'succeeds');
      const error = await caught(
        intent({ customer: other.id, payment_method: card, confirm: true, off_session: true }),
        Stripe.errors.StripeInvalidRequestError,
      );
      expect(error.statusCode).toBe(400);
    });

    it('answers 404 resource_missing for an intent that does not exist', async () => {
      const error = await caught(client().paymentIntents.retrieve('pi_doesnotexist000'), Stripe.errors.StripeInvalidRequestError);
      expect(error).toMatchObject({ statusCode: 404, code: 'resource_missing' });
    });
  });

  describe('payment intents: off-session card charges by test card', () => {
    const charge = async (
      behaviour: 'succeeds' | 'declines' | 'needsAuthentication',
      extra: Record<string, unknown> = { off_session: true },
    ) => {
      const customer = await newCustomer();
      const card = await getTarget().savedCard(customer.id, behaviour);
      return client().paymentIntents.create(
        loose<Stripe.PaymentIntentCreateParams>({
          amount: 1250,
          currency: 'usd',
          customer: customer.id,
          payment_method: card,
          payment_method_types: ['card'],
          confirm: true,
          metadata: { peerpay_transfer_id: 'tx_1' },
          ...extra,
        }),
      );
    };

    it('a card that works: succeeded', async () => {
      const intent = await charge('succeeds');
      expect(intent).toMatchObject({
        object: 'payment_intent',
        status: 'succeeded',
        amount: 1250,
        amount_received: 1250,
        currency: 'usd',
        metadata: { peerpay_transfer_id: 'tx_1' },
      });
      expect(intent.id).toMatch(/^pi_/);
      const again = await client().paymentIntents.retrieve(intent.id);
      expect(again).toMatchObject({ id: intent.id, status: 'succeeded' });
    });

    it('a declined card: 402 card_declined / generic_decline, the failed intent in the error', async () => {
      const error = await caught(charge('declines'), Stripe.errors.StripeCardError);
      expect(error).toMatchObject({ statusCode: 402, type: 'StripeCardError', code: 'card_declined', decline_code: 'generic_decline' });
      expect(error.payment_intent?.status).toBe('requires_payment_method');
      expect(error.payment_intent?.last_payment_error?.code).toBe('card_declined');
    });

    it('a card that needs its holder, off-session: 402 authentication_required', async () => {
      const error = await caught(charge('needsAuthentication'), Stripe.errors.StripeCardError);
      expect(error).toMatchObject({ statusCode: 402, code: 'authentication_required', decline_code: 'authentication_required' });
      expect(error.payment_intent?.status).toBe('requires_payment_method');
    });

    it('a card that needs its holder, on-session: requires_action', async () => {
      const intent = await charge('needsAuthentication', {});
      expect(intent.status).toBe('requires_action');
    });
  });

  describe('idempotency', () => {
    it('replays the first answer to a retry with the same key and parameters', async () => {
      const key = uniqueKey('replay');
      const params = { email: 'idem@peerpay.test', metadata: { peerpay_account_id: 'acc_idem' } };
      const first = await client().customers.create(params, { idempotencyKey: key });
      const second = await client().customers.create(params, { idempotencyKey: key });
      expect(second.id).toBe(first.id);
      expect(first.lastResponse.headers['idempotent-replayed']).toBeUndefined();
      expect(second.lastResponse.headers['idempotent-replayed']).toBe('true');
    });

    it('refuses the same key with other parameters, or on another endpoint', async () => {
      const key = uniqueKey('conflict');
      await client().customers.create({ email: 'first@peerpay.test' }, { idempotencyKey: key });
      const otherParams = await caught(
        client().customers.create({ email: 'second@peerpay.test' }, { idempotencyKey: key }),
        Stripe.errors.StripeIdempotencyError,
      );
      expect(otherParams).toMatchObject({ statusCode: 400, rawType: 'idempotency_error' });
      const otherEndpoint = await caught(
        client().accounts.create({ type: 'express', capabilities: { transfers: { requested: true } } }, { idempotencyKey: key }),
        Stripe.errors.StripeIdempotencyError,
      );
      expect(otherEndpoint.statusCode).toBe(400);
    });

    it('saves a card decline: a retry replays the same 402 and the same intent', async () => {
      const customer = await newCustomer();
      const card = await getTarget().savedCard(customer.id, 'declines');
      const key = uniqueKey('decline');
      const params: Stripe.PaymentIntentCreateParams = {
        amount: 1000,
        currency: 'usd',
        customer: customer.id,
        payment_method: card,
        payment_method_types: ['card'],
        confirm: true,
        off_session: true,
      };
      const first = await caught(client().paymentIntents.create(params, { idempotencyKey: key }), Stripe.errors.StripeCardError);
      const second = await caught(client().paymentIntents.create(params, { idempotencyKey: key }), Stripe.errors.StripeCardError);
      expect(second.payment_intent?.id).toBe(first.payment_intent?.id);
      expect(second.headers?.['idempotent-replayed']).toBe('true');
    });

    it('does not save a refusal of the parameters: the key can be used again with corrected ones', async () => {
      const key = uniqueKey('validation');
      await caught(
        client().customers.create(loose({ email: 'fix@peerpay.test', nickname: 'oops' }), { idempotencyKey: key }),
        Stripe.errors.StripeInvalidRequestError,
      );
      const customer = await client().customers.create({ email: 'fix@peerpay.test' }, { idempotencyKey: key });
      expect(customer.id).toMatch(/^cus_/);
      expect(customer.lastResponse.headers['idempotent-replayed']).toBeUndefined();
    });
  });

  describe('authentication', () => {
    it('refuses a wrong secret key with 401 (StripeAuthenticationError)', async () => {
      const error = await caught(
        getTarget().client({ secretKey: 'sk_test_thisKeyIsNotValid000000000000' }).customers.create({ email: 'x@peerpay.test' }),
        Stripe.errors.StripeAuthenticationError,
      );
      expect(error.statusCode).toBe(401);
    });

    it('refuses a request without a key, with a Request-Id', async () => {
      const response = await fetch(`${getTarget().apiBase}/v1/customers`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'email=x%40peerpay.test',
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('request-id')).toMatch(/^req_/);
      const body = (await response.json()) as { error: { type: string; message: string } };
      expect(body.error.message).toMatch(/API key/);
    });
  });
}
