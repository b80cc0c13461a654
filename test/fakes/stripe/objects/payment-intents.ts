// PaymentIntents created and confirmed in one call, off-session, on a saved payment method: peerpay's
// `instant` (card) and `ach` (us_bank_account) transfers. The outcome follows the test payment method
// the card or bank account was saved as; a card error is a 402 whose body carries the failed intent.
import { type Currency, checkAmount, readCurrency } from '../currency.js';
import { cardError, invalidRequest, noSuch, parameterError, type StripeErrorBody } from '../errors.js';
import { newId, randomToken } from '../ids.js';
import { arrayOf, boolean, integer, metadata, readParams, required, string } from '../params.js';
import { defineRoute } from '../routes.js';
import { type Context, snapshot, unixSeconds } from '../store.js';
import { createCharge } from './charges.js';
import type { PaymentMethod, PaymentMethodType } from './payment-methods.js';

export type PaymentIntentStatus = 'requires_payment_method' | 'requires_confirmation' | 'requires_action' | 'processing' | 'succeeded';

export interface PaymentError {
  type: 'card_error';
  code: string;
  decline_code?: string;
  message: string;
  doc_url: string;
  payment_method: PaymentMethod;
  charge?: string;
}

export interface PaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: Currency;
  customer: string | null;
  payment_method: string | null;
  payment_method_types: PaymentMethodType[];
  status: PaymentIntentStatus;
  description: string | null;
  metadata: Record<string, string>;
  confirmation_method: 'automatic';
  capture_method: 'automatic';
  client_secret: string;
  last_payment_error: PaymentError | null;
  next_action: { type: 'use_stripe_sdk'; use_stripe_sdk: Record<string, unknown> } | null;
  latest_charge: string | null;
  created: number;
  livemode: false;
}

const createSpec = {
  amount: required(integer()),
  currency: required(string()),
  customer: string(),
  payment_method: string(),
  payment_method_types: arrayOf(string({ oneOf: ['card', 'us_bank_account'] })),
  mandate: string(),
  confirm: boolean(),
  // Stripe also takes the enum spellings one_off / recurring here.
  off_session: boolean(['one_off', 'recurring']),
  metadata: metadata(),
  description: string({ maxLength: 1000 }),
};

const DECLINED = 'Your card was declined.';
const NEEDS_AUTHENTICATION = 'Your card was declined. This transaction requires authentication.';
const DOCS = 'https://stripe.com/docs/error-codes';

function paymentError(code: string, declineCode: string | undefined, message: string, pm: PaymentMethod, charge?: string): PaymentError {
  const error: PaymentError = {
    type: 'card_error',
    code,
    message,
    doc_url: `${DOCS}/${code.replace(/_/g, '-')}`,
    payment_method: snapshot(pm),
  };
  if (declineCode !== undefined) error.decline_code = declineCode;
  if (charge !== undefined) error.charge = charge;
  return error;
}

/** Where the saved payment method must come from, checked as Stripe checks it. */
function lookUpPaymentMethod(ctx: Context, id: string, customer: string | null): PaymentMethod {
  const pm = ctx.store.paymentMethods.get(id);
  if (pm === undefined) {
    const hint =
      id.startsWith('pm_card_') || id.startsWith('pm_usBankAccount_')
        ? ' (the Stripe stand-in charges only payment methods saved by completing a checkout session)'
        : '';
    throw invalidRequest(`No such PaymentMethod: '${id}'${hint}`, { code: 'resource_missing', param: 'payment_method' });
  }
  if (pm.customer !== null && customer === null) {
    throw invalidRequest(
      `The provided PaymentMethod ${id} is attached to a Customer. To use it with this PaymentIntent, you must pass the ID of that Customer in the \`customer\` parameter.`,
      {
        param: 'customer',
      },
    );
  }
  if (customer !== null && pm.customer !== customer) {
    throw invalidRequest(`The provided PaymentMethod ${id} does not belong to the Customer ${customer}.`, { param: 'payment_method' });
  }
  return pm;
}

export const paymentIntentRoutes = [
  defineRoute({
    method: 'POST',
    pattern: /^\/v1\/payment_intents$/,
    validate(params) {
      const input = readParams(createSpec, params);
      const currency = readCurrency(input.currency);
      checkAmount(input.amount, currency, { charge: true });
      const offSession = input.off_session !== undefined && input.off_session !== false;
      if (offSession && input.confirm !== true) {
        throw parameterError('You can only pass `off_session` when `confirm` is true.', { param: 'off_session' });
      }
      const types = input.payment_method_types === undefined ? undefined : [...new Set(input.payment_method_types)];
      if (types?.includes('us_bank_account') === true && currency !== 'usd') {
        throw parameterError(`The currency provided (${currency}) is invalid. us_bank_account supports only usd.`, { param: 'currency' });
      }
      return { ...input, currency, offSession, types };
    },
    execute(input, ctx) {
      const customer = input.customer ?? null;
      if (customer !== null && !ctx.store.customers.has(customer)) throw noSuch('customer', customer, 'customer', 400);
      const pm = input.payment_method === undefined ? null : lookUpPaymentMethod(ctx, input.payment_method, customer);
      // Without payment_method_types Stripe picks from the methods the account has enabled; here: the saved one's type.
      const types = input.types ?? [pm?.type ?? 'card'];
      if (pm !== null && !types.includes(pm.type)) {
        throw invalidRequest(
          `The PaymentMethod provided (${pm.type}) is not allowed for this PaymentIntent. Please attach a PaymentMethod of one of the following types: ${types.join(', ')}.`,
          { code: 'payment_intent_invalid_parameter', param: 'payment_method' },
        );
      }
      if (pm?.type === 'us_bank_account') {
        if (input.currency !== 'usd')
          throw invalidRequest(`The currency provided (${input.currency}) is invalid. us_bank_account supports only usd.`, {
            param: 'currency',
          });
        checkMandate(ctx, input.mandate, pm, input.confirm === true && input.offSession);
      } else if (input.mandate !== undefined && !ctx.store.mandates.has(input.mandate)) {
        throw noSuch('mandate', input.mandate, 'mandate', 400);
      }
      if (input.confirm === true && pm === null) {
        throw invalidRequest("You cannot confirm this PaymentIntent because it's missing a payment method. Pass `payment_method`.", {
          code: 'payment_intent_unexpected_state',
          param: 'payment_method',
        });
      }
      const id = newId('pi');
      const intent: PaymentIntent = {
        id,
        object: 'payment_intent',
        amount: input.amount,
        amount_received: 0,
        currency: input.currency,
        customer,
        payment_method: pm?.id ?? null,
        payment_method_types: types,
        status: pm === null ? 'requires_payment_method' : 'requires_confirmation',
        description: input.description ?? null,
        metadata: input.metadata ?? {},
        confirmation_method: 'automatic',
        capture_method: 'automatic',
        client_secret: `${id}_secret_${randomToken(24)}`,
        last_payment_error: null,
        next_action: null,
        latest_charge: null,
        created: unixSeconds(ctx.clock),
        livemode: false,
      };
      ctx.store.paymentIntents.set(id, intent);
      if (input.confirm === true && pm !== null) confirm(ctx, intent, pm, input.offSession);
      return snapshot(intent);
    },
  }),
  defineRoute({
    method: 'GET',
    pattern: /^\/v1\/payment_intents\/(?<id>[^/]+)$/,
    validate: (params, id) => ({ ...readParams({}, params), id: id ?? '' }),
    execute(input, ctx) {
      const intent = ctx.store.paymentIntents.get(input.id);
      if (intent === undefined) throw noSuch('payment_intent', input.id, 'intent', 404);
      return snapshot(intent);
    },
  }),
];

function checkMandate(ctx: Context, mandateId: string | undefined, pm: PaymentMethod, offSessionConfirm: boolean): void {
  if (mandateId === undefined) {
    if (offSessionConfirm) {
      throw invalidRequest(
        'Missing required param: mandate. An off-session us_bank_account payment needs the mandate saved with its payment method.',
        {
          code: 'parameter_missing',
          param: 'mandate',
        },
      );
    }
    return;
  }
  const mandate = ctx.store.mandates.get(mandateId);
  if (mandate === undefined) throw noSuch('mandate', mandateId, 'mandate', 400);
  if (mandate.payment_method !== pm.id) {
    throw invalidRequest('The provided mandate is invalid and can not be used for the payment intent.', {
      code: 'payment_intent_mandate_invalid',
      param: 'mandate',
    });
  }
}

/** Confirmation, by what the saved payment method was set up as. */
function confirm(ctx: Context, intent: PaymentIntent, pm: PaymentMethod, offSession: boolean): void {
  const behaviour = ctx.store.behaviours.get(pm.id);
  switch (behaviour) {
    case 'pm_card_visa':
      succeed(ctx, intent);
      return;
    case 'pm_card_chargeDeclined':
    case 'pm_card_chargeCustomerFail':
      fail(ctx, intent, paymentError('card_declined', 'generic_decline', DECLINED, pm, newId('ch')));
      return;
    case 'pm_card_authenticationRequired':
      if (offSession) {
        fail(ctx, intent, paymentError('authentication_required', 'authentication_required', NEEDS_AUTHENTICATION, pm, newId('ch')));
        return;
      }
      // On-session the customer could still authenticate: the intent waits for them.
      intent.status = 'requires_action';
      intent.next_action = { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect' } };
      return;
    case 'pm_usBankAccount_success':
    case 'pm_usBankAccount_insufficientFunds':
      // ACH debits take days: processing now, settled (or returned) when the test says so.
      intent.status = 'processing';
      ctx.emit('payment_intent.processing', intent);
      return;
    case undefined:
      throw new Error(`Stripe stand-in: payment method ${pm.id} has no test behaviour`);
  }
}

function succeed(ctx: Context, intent: PaymentIntent): void {
  intent.status = 'succeeded';
  intent.amount_received = intent.amount;
  // Stripe names card charges ch_… and bank debits py_….
  const pm = intent.payment_method === null ? undefined : ctx.store.paymentMethods.get(intent.payment_method);
  intent.latest_charge = createCharge(ctx, intent, pm?.type === 'us_bank_account' ? 'bank' : 'card').id;
  ctx.emit('payment_intent.succeeded', intent);
}

/** A failed attempt: the intent needs a new payment method, and the create call answers 402. */
function fail(ctx: Context, intent: PaymentIntent, error: PaymentError): never {
  intent.status = 'requires_payment_method';
  intent.last_payment_error = error;
  intent.latest_charge = error.charge ?? null;
  ctx.emit('payment_intent.payment_failed', intent);
  const extra: Partial<StripeErrorBody> = { payment_intent: snapshot(intent), payment_method: snapshot(error.payment_method) };
  if (error.charge !== undefined) extra.charge = error.charge;
  throw cardError(error.message, error.code, error.decline_code, extra);
}

/** Settles processing bank debits (all, or those named): succeeded, or returned for insufficient funds. */
export function settleBankDebits(ctx: Context, only?: readonly string[]): string[] {
  const settled: string[] = [];
  for (const intent of ctx.store.paymentIntents.values()) {
    if (intent.status !== 'processing') continue;
    if (only !== undefined && !only.includes(intent.id)) continue;
    const pm = intent.payment_method === null ? undefined : ctx.store.paymentMethods.get(intent.payment_method);
    const behaviour = pm === undefined ? undefined : ctx.store.behaviours.get(pm.id);
    if (pm === undefined || behaviour === undefined) continue;
    if (behaviour === 'pm_usBankAccount_insufficientFunds') {
      intent.status = 'requires_payment_method';
      intent.last_payment_error = paymentError(
        'insufficient_funds',
        undefined,
        "The customer's account has insufficient funds to cover this payment.",
        pm,
      );
      ctx.emit('payment_intent.payment_failed', intent);
    } else {
      succeed(ctx, intent);
    }
    settled.push(intent.id);
  }
  return settled;
}
