// POST /transfers and GET /transfers/quote: a fiat transfer and what it would cost. Registered from
// fiat-routes.ts, in its scope (its hook logs the cause of processor failures).
import { formatMinor } from '../../money/amount.js';
import type { FiatTransfers } from '../../fiat/fiat-transfers.js';
import type { FiatTransfer } from '../../fiat/fiat-transfer.js';
import { callerOf } from '../plugins/auth.js';
import { IdempotencyHeaders } from '../schemas/common.js';
import { operation } from '../schemas/operation.js';
import { FiatQuoteQuery, FiatQuoteResponse, SendTransferBody, TransferResponse } from '../schemas/fiat-schemas.js';
import { HANDLE_PATTERN } from '../../platform/ids.js';
import type { App } from '../types.js';

/** A well-formed handle (once trimmed and upper-cased, as the service reads it): only such a one is looked up early. */
const HANDLE = new RegExp(HANDLE_PATTERN);

export function fiatTransferRoutes(app: App, transfers: FiatTransfers): void {
  sendTransferRoute(app, transfers);
  quoteTransferRoute(app, transfers);
}

function sendTransferRoute(app: App, transfers: FiatTransfers): void {
  app.post(
    '/transfers',
    operation({
      operationId: 'createTransfer',
      tag: 'fiat',
      summary: 'Send money to another user; the sender pays the fee on top',
      description:
        '`instant` charges the saved card and completes at once. `ach` debits the bank account: `pending`, then `completed` after 3 business days (or `failed` if the bank returns the debit). Answers 200. Errors: 400 `amount_too_small` (the total charged, fee included, must reach the card network’s minimum: USD 0.50, EUR 0.50, GBP 0.30, JPY 50; `minimum` names the smallest amount), 402 `card_setup_required` / `card_declined` / `card_authentication_required` (call POST /agent/setup-link and have the user set up the card again), 409 `ach_setup_required` with `needsBankDebitSetup: true` (call POST /agent/bank-debit-link), 429 `limit_exceeded` (over a 24-hour or 30-day limit on what the account sends in that currency, fee included; `limit`, `window` and `remaining` say which, Retry-After when it fits again; `GET /account/limits` shows them), 503 `processor_unavailable` (retry with the same Idempotency-Key; you are charged once).',
      auth: 'required',
      readsBody: true,
      idempotent: true,
      headers: IdempotencyHeaders,
      body: SendTransferBody,
      responses: { 200: TransferResponse },
      errors: [
        'invalid_field',
        'invalid_amount',
        'amount_too_small',
        'amount_too_large',
        'unsupported_currency',
        'self_transfer',
        'recipient_not_found',
        'card_setup_required',
        'card_declined',
        'card_authentication_required',
        'card_disputed',
        'account_in_debt',
        'account_frozen',
        'ach_setup_required',
        'limit_exceeded',
        'processor_unavailable',
      ],
    }),
    async (request) => {
      const caller = callerOf(request);
      const sent = await transfers.send({
        ...request.body,
        senderAccountId: caller.accountId,
        senderHandle: caller.handle,
        idempotencyKey: request.idempotencyKey,
      });
      return { transfer: presentTransfer(sent.transfer, sent.recipientHandle) };
    },
  );
}

function quoteTransferRoute(app: App, transfers: FiatTransfers): void {
  app.get(
    '/transfers/quote',
    operation({
      operationId: 'quoteTransfer',
      tag: 'fiat',
      summary: 'What a fiat transfer would cost: the fee on top and the total charged',
      description:
        'Computed by the same rules as POST /transfers, so the numbers are the transfer’s, and terms it would refuse (currency, amount, minimum charge, unknown recipient, yourself, 429 `limit_exceeded` beyond a limit) are refused here too. `paymentMethod` defaults to `instant`. Card and bank debit setup are not checked; nothing is recorded.',
      auth: 'required',
      // The recipient is read in the same statement as the key: one round trip for the whole quote.
      accountAlongsideKey: (request) => {
        const sent = (request.query as { recipientHandle?: unknown }).recipientHandle;
        const handle = typeof sent === 'string' ? sent.trim().toUpperCase() : '';
        return HANDLE.test(handle) ? { handle } : undefined;
      },
      querystring: FiatQuoteQuery,
      responses: { 200: FiatQuoteResponse },
      errors: [
        'account_frozen',
        'invalid_amount',
        'amount_too_small',
        'amount_too_large',
        'unsupported_currency',
        'self_transfer',
        'recipient_not_found',
        'limit_exceeded',
      ],
    }),
    async (request) => {
      const quote = await transfers.quote({
        ...request.query,
        senderAccountId: callerOf(request).accountId,
        recipientLookup: request.accountLookup,
      });
      return {
        amount: formatMinor(quote.amountMinor, quote.currency),
        fee: formatMinor(quote.feeMinor, quote.currency),
        totalDeducted: formatMinor(quote.amountMinor + quote.feeMinor, quote.currency),
        feeRate: quote.feeRateLabel,
        currency: quote.currency,
        paymentMethod: quote.paymentMethod,
        recipientHandle: quote.recipientHandle,
      };
    },
  );
}

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

function presentTransfer(t: FiatTransfer, recipientHandle: string) {
  return {
    id: t.id,
    amount: formatMinor(t.amountMinor, t.currency),
    fee: formatMinor(t.feeMinor, t.currency),
    totalDeducted: formatMinor(t.amountMinor + t.feeMinor, t.currency),
    currency: t.currency,
    status: t.status,
    paymentMethod: t.paymentMethod,
    recipientHandle,
    note: t.note,
    createdAt: t.createdAt.toISOString(),
    expectedSettlementAt: t.status === 'pending' ? iso(t.settlesAt) : null,
    completedAt: iso(t.completedAt),
  };
}
