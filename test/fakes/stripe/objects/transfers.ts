// POST /v1/transfers: paying a received balance out to a user's connected account. Stripe refuses a
// destination that has not finished onboarding (no active transfers capability).
import { checkAmount, readCurrency } from '../currency.js';
import { invalidRequest, noSuch } from '../errors.js';
import { newId } from '../ids.js';
import { integer, metadata, readParams, required, string } from '../params.js';
import { defineRoute } from '../routes.js';
import { snapshot, unixSeconds } from '../store.js';
import { canReceiveTransfers } from './accounts.js';

export interface Transfer {
  id: string;
  object: 'transfer';
  amount: number;
  amount_reversed: number;
  currency: string;
  destination: string;
  transfer_group: string | null;
  description: string | null;
  metadata: Record<string, string>;
  reversed: false;
  created: number;
  livemode: false;
}

const createSpec = {
  amount: required(integer()),
  currency: required(string()),
  destination: required(string()),
  transfer_group: string(),
  description: string({ maxLength: 1000 }),
  metadata: metadata(),
};

export const transferRoutes = [
  defineRoute({
    method: 'POST',
    pattern: /^\/v1\/transfers$/,
    validate(params) {
      const input = readParams(createSpec, params);
      const currency = readCurrency(input.currency);
      // A transfer moves balance, not a charge: no minimum charge amount, but a positive integer.
      checkAmount(input.amount, currency, { charge: false });
      return { ...input, currency };
    },
    execute(input, ctx) {
      const account = ctx.store.accounts.get(input.destination);
      if (account === undefined) throw noSuch('account', input.destination, 'destination', 400);
      if (!canReceiveTransfers(account)) {
        throw invalidRequest(
          'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
          {
            code: 'insufficient_capabilities_for_transfer',
            param: 'destination',
          },
        );
      }
      const transfer: Transfer = {
        id: newId('tr'),
        object: 'transfer',
        amount: input.amount,
        amount_reversed: 0,
        currency: input.currency,
        destination: input.destination,
        transfer_group: input.transfer_group ?? null,
        description: input.description ?? null,
        metadata: input.metadata ?? {},
        reversed: false,
        created: unixSeconds(ctx.clock),
        livemode: false,
      };
      ctx.store.transfers.set(transfer.id, transfer);
      return snapshot(transfer);
    },
  }),
];
