// Setup-mode Checkout Sessions: peerpay's setup link (card) and bank-debit link (us_bank_account).
// The session's `url` is a page of the stand-in itself; a test completes the session either by that
// page's buttons or by the in-process control — both go through completeCheckoutSession.
import { currencyRequiredForBank } from './rules.js';
import { noSuch, parameterError } from '../errors.js';
import { randomToken } from '../ids.js';
import { arrayOf, integer, metadata, readParams, required, string } from '../params.js';
import { readCurrency } from '../currency.js';
import { defineRoute } from '../routes.js';
import { type Context, snapshot, unixSeconds } from '../store.js';
import {
  type Mandate,
  type PaymentMethod,
  type PaymentMethodType,
  type TestPaymentMethod,
  savePaymentMethod,
  typeOf,
} from './payment-methods.js';
import { createSetupIntent, type SetupIntent } from './setup-intents.js';

export interface CheckoutSession {
  id: string;
  object: 'checkout.session';
  mode: 'setup';
  status: 'open' | 'complete' | 'expired';
  url: string | null;
  customer: string | null;
  setup_intent: string;
  success_url: string;
  cancel_url: string | null;
  expires_at: number;
  metadata: Record<string, string>;
  payment_method_types: PaymentMethodType[];
  currency: string | null;
  payment_status: 'no_payment_required';
  client_reference_id: null;
  created: number;
  livemode: false;
}

const MIN_LIFETIME = 30 * 60;
const MAX_LIFETIME = 24 * 60 * 60;

const createSpec = {
  mode: required(string({ oneOf: ['payment', 'setup', 'subscription'] })),
  payment_method_types: arrayOf(string({ oneOf: ['card', 'us_bank_account'] })),
  customer: string(),
  success_url: required(string({ maxLength: 5000 })),
  cancel_url: string({ maxLength: 5000 }),
  expires_at: integer(),
  metadata: metadata(),
  currency: string(),
};

/** A session past its expires_at is expired the next time anyone looks at it, as on Stripe. */
export function refreshExpiry(ctx: Context, session: CheckoutSession): void {
  if (session.status === 'open' && unixSeconds(ctx.clock) >= session.expires_at) expire(ctx, session);
}

function expire(ctx: Context, session: CheckoutSession): void {
  session.status = 'expired';
  session.url = null;
  const intent = ctx.store.setupIntents.get(session.setup_intent);
  if (intent !== undefined && intent.status === 'requires_payment_method') intent.status = 'canceled';
}

export const checkoutSessionRoutes = [
  defineRoute({
    method: 'POST',
    pattern: /^\/v1\/checkout\/sessions$/,
    validate(params, _id, ctx) {
      const input = readParams(createSpec, params);
      if (input.mode !== 'setup')
        throw parameterError(`The Stripe stand-in serves mode=setup only (got mode=${input.mode}).`, { param: 'mode' });
      const currency = input.currency === undefined ? undefined : readCurrency(input.currency);
      if (input.payment_method_types === undefined && currency === undefined) {
        throw parameterError('Missing required param: currency. In setup mode, pass `currency` or `payment_method_types`.', {
          code: 'parameter_missing',
          param: 'currency',
        });
      }
      const types = input.payment_method_types ?? ['card'];
      if (types.length === 0)
        throw parameterError('Invalid array: payment_method_types must not be empty.', { param: 'payment_method_types' });
      if (types.includes('us_bank_account')) currencyRequiredForBank(currency);
      const now = unixSeconds(ctx.clock);
      const expiresAt = input.expires_at ?? now + MAX_LIFETIME;
      if (expiresAt < now + MIN_LIFETIME) {
        throw parameterError('The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.', {
          param: 'expires_at',
        });
      }
      if (expiresAt > now + MAX_LIFETIME) {
        throw parameterError('The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.', {
          param: 'expires_at',
        });
      }
      return { ...input, currency, types: [...new Set(types)], expiresAt };
    },
    execute(input, ctx) {
      if (input.customer !== undefined && !ctx.store.customers.has(input.customer))
        throw noSuch('customer', input.customer, 'customer', 400);
      const customer = input.customer ?? null;
      const intent = createSetupIntent(ctx, customer, input.types);
      const id = `cs_test_${randomToken(58)}`;
      const session: CheckoutSession = {
        id,
        object: 'checkout.session',
        mode: 'setup',
        status: 'open',
        url: `${ctx.apiBase}/checkout/${id}`,
        customer,
        setup_intent: intent.id,
        success_url: input.success_url,
        cancel_url: input.cancel_url ?? null,
        expires_at: input.expiresAt,
        metadata: input.metadata ?? {},
        payment_method_types: input.types,
        currency: input.currency ?? null,
        payment_status: 'no_payment_required',
        client_reference_id: null,
        created: unixSeconds(ctx.clock),
        livemode: false,
      };
      ctx.store.checkoutSessions.set(id, session);
      return snapshot(session);
    },
  }),
  defineRoute({
    method: 'GET',
    pattern: /^\/v1\/checkout\/sessions\/(?<id>[^/]+)$/,
    validate: (params, id) => ({ ...readParams({}, params), id: id ?? '' }),
    execute(input, ctx) {
      const session = ctx.store.checkoutSessions.get(input.id);
      if (session === undefined) throw noSuch('checkout.session', input.id, 'session', 404);
      refreshExpiry(ctx, session);
      return snapshot(session);
    },
  }),
];

export interface CompletedSetup {
  session: CheckoutSession;
  setupIntent: SetupIntent;
  paymentMethod: PaymentMethod;
  mandate: Mandate | null;
}

function requireSession(ctx: Context, sessionId: string): CheckoutSession {
  const session = ctx.store.checkoutSessions.get(sessionId);
  if (session === undefined) throw new Error(`Stripe stand-in: no checkout session ${sessionId}`);
  refreshExpiry(ctx, session);
  return session;
}

/**
 * What the customer finishing Checkout does: the SetupIntent succeeds with a new payment method (and
 * mandate, for a bank account) saved for the session's customer, the session completes, and
 * `checkout.session.completed` is emitted.
 */
export function completeCheckoutSession(ctx: Context, sessionId: string, behaviour: TestPaymentMethod): CompletedSetup {
  const session = requireSession(ctx, sessionId);
  if (session.status !== 'open') throw new Error(`Stripe stand-in: checkout session ${sessionId} is ${session.status}, not open`);
  const type = typeOf(behaviour);
  if (!session.payment_method_types.includes(type)) {
    throw new Error(
      `Stripe stand-in: checkout session ${sessionId} takes ${session.payment_method_types.join(', ')}, not ${type} (${behaviour})`,
    );
  }
  const intent = ctx.store.setupIntents.get(session.setup_intent);
  if (intent === undefined) throw new Error(`Stripe stand-in: checkout session ${sessionId} lost its setup intent`);
  const email = session.customer === null ? null : (ctx.store.customers.get(session.customer)?.email ?? null);
  const saved = savePaymentMethod(ctx, session.customer, behaviour, email);
  intent.status = 'succeeded';
  intent.payment_method = saved.paymentMethod.id;
  intent.mandate = saved.mandate?.id ?? null;
  session.status = 'complete';
  session.url = null;
  ctx.emit('checkout.session.completed', session);
  return snapshot({ session, setupIntent: intent, paymentMethod: saved.paymentMethod, mandate: saved.mandate });
}

/** What Stripe does when a session is expired (POST …/expire, or its expires_at passing): no completion possible. */
export function expireCheckoutSession(ctx: Context, sessionId: string): CheckoutSession {
  const session = requireSession(ctx, sessionId);
  if (session.status === 'complete') throw new Error(`Stripe stand-in: checkout session ${sessionId} is already complete`);
  expire(ctx, session);
  return snapshot(session);
}
