// POST /v1/customers: peerpay makes one customer per user (email, metadata[peerpay_account_id]).
import { newId } from '../ids.js';
import { metadata, readParams, string } from '../params.js';
import { defineRoute } from '../routes.js';
import { snapshot, unixSeconds } from '../store.js';

export interface Customer {
  id: string;
  object: 'customer';
  email: string | null;
  name: string | null;
  description: string | null;
  metadata: Record<string, string>;
  created: number;
  livemode: false;
}

const createSpec = { email: string({ maxLength: 512 }), metadata: metadata() };

export const customerRoutes = [
  defineRoute({
    method: 'POST',
    pattern: /^\/v1\/customers$/,
    validate: (params) => readParams(createSpec, params),
    execute(input, ctx) {
      const customer: Customer = {
        id: newId('cus', 14),
        object: 'customer',
        email: input.email ?? null,
        name: null,
        description: null,
        metadata: input.metadata ?? {},
        created: unixSeconds(ctx.clock),
        livemode: false,
      };
      ctx.store.customers.set(customer.id, customer);
      return snapshot(customer);
    },
  }),
];
