// A setup-mode checkout session owns one SetupIntent; completing the session is what saves the
// payment method (and the mandate, for a bank debit) that peerpay reads back with GET /v1/setup_intents/{id}.
import { noSuch } from '../errors.js';
import { newId, randomToken } from '../ids.js';
import { readParams } from '../params.js';
import { defineRoute } from '../routes.js';
import { type Context, snapshot, unixSeconds } from '../store.js';
import type { PaymentMethodType } from './payment-methods.js';

export interface SetupIntent {
  id: string;
  object: 'setup_intent';
  status: 'requires_payment_method' | 'succeeded' | 'canceled';
  customer: string | null;
  payment_method: string | null;
  mandate: string | null;
  usage: 'off_session';
  payment_method_types: PaymentMethodType[];
  client_secret: string;
  created: number;
  livemode: false;
  metadata: Record<string, string>;
}

export function createSetupIntent(ctx: Context, customer: string | null, types: PaymentMethodType[]): SetupIntent {
  const id = newId('seti');
  const intent: SetupIntent = {
    id,
    object: 'setup_intent',
    status: 'requires_payment_method',
    customer,
    payment_method: null,
    mandate: null,
    usage: 'off_session',
    payment_method_types: types,
    client_secret: `${id}_secret_${randomToken(24)}`,
    created: unixSeconds(ctx.clock),
    livemode: false,
    metadata: {},
  };
  ctx.store.setupIntents.set(id, intent);
  return intent;
}

export const setupIntentRoutes = [
  defineRoute({
    method: 'GET',
    pattern: /^\/v1\/setup_intents\/(?<id>[^/]+)$/,
    validate: (params, id) => ({ ...readParams({}, params), id: id ?? '' }),
    execute(input, ctx) {
      const intent = ctx.store.setupIntents.get(input.id);
      if (intent === undefined) throw noSuch('setupintent', input.id, 'intent', 404);
      return snapshot(intent);
    },
  }),
];
