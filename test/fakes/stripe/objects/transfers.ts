// POST /v1/transfers: paying a received balance out to a user's connected account. Stripe refuses a
// destination that has not finished onboarding (no active transfers capability).
// POST /v1/transfers/{id}/reversals takes (part of) one back; `reversed` once all of it is back.
import { checkAmount, readCurrency } from '../currency.js';
import { invalidRequest, noSuch, parameterError } from '../errors.js';
import { newId } from '../ids.js';
import { boolean, integer, metadata, readParams, required, string } from '../params.js';
import { defineRoute } from '../routes.js';
import { snapshot, unixSeconds } from '../store.js';
import { canReceiveTransfers } from './accounts.js';
import { recordBalanceTransaction } from './balance-transactions.js';

export interface TransferReversal {
  id: string;
  object: 'transfer_reversal';
  amount: number;
  balance_transaction: string;
  created: number;
  currency: string;
  destination_payment_refund: null;
  metadata: Record<string, string>;
  source_refund: null;
  transfer: string;
}

const reversalSpec = {
  amount: integer(),
  description: string({ maxLength: 1000 }),
  metadata: metadata(),
  refund_application_fee: boolean(),
};

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
  reversed: boolean;
  balance_transaction: string;
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
      const id = newId('tr');
      const transaction = recordBalanceTransaction(ctx, {
        amount: -input.amount,
        currency: input.currency,
        source: id,
        type: 'transfer',
        category: 'transfer',
      });
      const transfer: Transfer = {
        id,
        object: 'transfer',
        amount: input.amount,
        amount_reversed: 0,
        currency: input.currency,
        destination: input.destination,
        transfer_group: input.transfer_group ?? null,
        description: input.description ?? null,
        metadata: input.metadata ?? {},
        reversed: false,
        balance_transaction: transaction.id,
        created: unixSeconds(ctx.clock),
        livemode: false,
      };
      ctx.store.transfers.set(transfer.id, transfer);
      return snapshot(transfer);
    },
  }),
  defineRoute({
    method: 'POST',
    pattern: /^\/v1\/transfers\/(?<id>[^/]+)\/reversals$/,
    validate(params, id) {
      const input = readParams(reversalSpec, params);
      if (input.amount !== undefined && input.amount < 1)
        throw parameterError('This value must be greater than or equal to 1.', { code: 'parameter_invalid_integer', param: 'amount' });
      return { ...input, id: id ?? '' };
    },
    execute(input, ctx) {
      const transfer = ctx.store.transfers.get(input.id);
      if (transfer === undefined) throw noSuch('transfer', input.id, 'id', 404);
      const left = transfer.amount - transfer.amount_reversed;
      if (left === 0)
        throw invalidRequest(`Transfer ${transfer.id} has already been fully reversed.`, { code: 'transfer_already_reversed' });
      const amount = input.amount ?? left;
      if (amount > left)
        throw invalidRequest(`You have requested a reversal of ${amount}, but this transfer only has ${left} left to reverse.`, {
          param: 'amount',
        });
      const reversalId = newId('trr');
      const transaction = recordBalanceTransaction(ctx, {
        amount,
        currency: transfer.currency,
        source: reversalId,
        type: 'transfer_refund',
        category: 'transfer_reversal',
      });
      const reversal: TransferReversal = {
        id: reversalId,
        object: 'transfer_reversal',
        amount,
        balance_transaction: transaction.id,
        created: unixSeconds(ctx.clock),
        currency: transfer.currency,
        destination_payment_refund: null,
        metadata: input.metadata ?? {},
        source_refund: null,
        transfer: transfer.id,
      };
      ctx.store.transferReversals.set(reversalId, reversal);
      transfer.amount_reversed += amount;
      transfer.reversed = transfer.amount_reversed === transfer.amount;
      return snapshot(reversal);
    },
  }),
];
