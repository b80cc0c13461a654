// POST /stablecoin/withdraw: send USDC or EURC to an external Polygon address.
import { toJsonNumber } from '../../money/amount.js';
import { AppError, assert } from '../../platform/errors.js';
import type { StablecoinWithdrawals } from '../../stablecoin/stablecoin-withdrawals.js';
import { STABLECOIN_FEE_RATE } from '../../money/fees.js';
import { withdrawalNote, type Withdrawal } from '../../stablecoin/withdrawal.js';
import { callerOf } from '../plugins/auth.js';
import { IdempotencyHeaders } from '../schemas/common.js';
import { operation } from '../schemas/operation.js';
import {
  WithdrawBody,
  WithdrawalQuoteQuery,
  WithdrawalQuoteResponse,
  WithdrawalResponse,
} from '../schemas/stablecoin-withdrawal-schemas.js';
import type { App } from '../types.js';
import type { Config } from '../../config.js';

/** What these routes use: the withdrawals, and how many confirmations a withdrawal waits for. */
export type StablecoinWithdrawalRoutesDeps = {
  withdrawals: Pick<StablecoinWithdrawals, 'quote' | 'withdraw'>;
  config: Pick<Config, 'chainConfirmations'>;
};

export async function stablecoinWithdrawalRoutes(app: App, deps: StablecoinWithdrawalRoutesDeps): Promise<void> {
  // A withdrawal the chain refused reaches the client as 503 withdrawal_unavailable; its cause is logged here.
  app.addHook('onError', async (request, _reply, error) => {
    if (error instanceof AppError && error.code === 'withdrawal_unavailable')
      request.log.warn({ cause: error.cause }, 'withdrawal could not be sent');
  });
  quoteRoute(app, deps);
  withdrawRoute(app, deps);
}

/** GET /stablecoin/withdraw/quote: what a withdrawal would cost, and where it would go. */
function quoteRoute(app: App, deps: StablecoinWithdrawalRoutesDeps): void {
  app.get(
    '/stablecoin/withdraw/quote',
    operation({
      operationId: 'quoteWithdrawal',
      tag: 'stablecoin',
      summary: 'What a withdrawal would cost: the fee, what arrives, and the address it would go to',
      description:
        'Computed by the same rules as POST /stablecoin/withdraw, and refused as it would be (amount, minimum 1.00, currency, address, no default address, a sanctioned address: 403 `destination_sanctioned`; 503 `screening_unavailable` when the address cannot be screened now; 429 `limit_exceeded` beyond a limit); the balance is not checked and nothing is recorded or frozen. Without `address`, the saved default is named.',
      auth: 'required',
      querystring: WithdrawalQuoteQuery,
      responses: { 200: WithdrawalQuoteResponse },
      errors: [
        'account_frozen',
        'invalid_amount',
        'amount_too_small',
        'amount_too_large',
        'unsupported_currency',
        'invalid_address',
        'no_default_address',
        'limit_exceeded',
        'destination_sanctioned',
        'screening_unavailable',
      ],
    }),
    async (request) => {
      const quote = await deps.withdrawals.quote({ accountId: callerOf(request).accountId, ...request.query });
      return {
        gross: toJsonNumber(quote.priced.amountMinor, quote.currency),
        fee: toJsonNumber(quote.priced.feeMinor, quote.currency),
        feeRate: STABLECOIN_FEE_RATE.label,
        net: toJsonNumber(quote.priced.netMinor, quote.currency),
        currency: quote.currency,
        address: quote.address,
      };
    },
  );
}

/** POST /stablecoin/withdraw: send to an external address. */
function withdrawRoute(app: App, deps: StablecoinWithdrawalRoutesDeps): void {
  app.post(
    '/stablecoin/withdraw',
    operation({
      operationId: 'createWithdrawal',
      tag: 'stablecoin',
      summary: 'Withdraw USDC or EURC to a Polygon address; the 1.49% fee comes out of the amount',
      description:
        'Reserves `gross` from the balance and sends `net` = gross − fee on Polygon from peerpay’s hot wallet; `txId` is the transaction hash. A withdrawal you can afford is never refused for peerpay’s reasons: when the hot wallet does not hold the tokens yet (a deposit still being moved to it), it is accepted `pending` with `txId` null and sent as soon as the hot wallet does. `pending` until the transaction has the configured confirmations, then `complete`; a reverted transaction makes it `failed` and refunds gross. Without `address` the saved default is used (PUT /stablecoin/withdrawal-address); the first completed withdrawal’s address becomes the default when none is saved. ' +
        'The smallest withdrawal is 1.00 (its fee pays for the chain transaction). ' +
        'The destination is screened against sanctions lists at the request and again before the transaction is signed: a listed address is refused with 403 `destination_sanctioned`, nothing is sent and the account is frozen; when it cannot be screened now, 503 `screening_unavailable` with Retry-After and nothing moves. ' +
        'Errors: 403 `account_frozen` (the account is frozen; a withdrawal accepted before the freeze and not yet signed fails, refunded, with failureCode `account_frozen`); 400 `invalid_request`, `invalid_amount`, `amount_too_small` (under 1.00; `minimum` names it as a decimal string), `amount_too_large`, `unsupported_currency`, `invalid_address`, `no_default_address`, `insufficient_balance`; 403 `destination_sanctioned`; 422 `idempotency_key_reused`; 429 `limit_exceeded` (over a 24-hour or 30-day limit, the gross counted; Retry-After when it fits again); 503 `withdrawal_unavailable` (the token contract refused the transfer: nothing sent, balance unchanged; retry later), `screening_unavailable`.',
      auth: 'required',
      readsBody: true,
      idempotent: true,
      headers: IdempotencyHeaders,
      body: WithdrawBody,
      responses: { 200: WithdrawalResponse },
      errors: [
        'account_frozen',
        'invalid_amount',
        'amount_too_small',
        'amount_too_large',
        'unsupported_currency',
        'invalid_address',
        'no_default_address',
        'insufficient_balance',
        'limit_exceeded',
        'withdrawal_unavailable',
        'destination_sanctioned',
        'screening_unavailable',
      ],
    }),
    async (request) => {
      const w = await deps.withdrawals.withdraw({
        accountId: callerOf(request).accountId,
        amount: request.body.amount,
        currency: request.body.currency,
        address: request.body.address,
        idempotencyKey: request.idempotencyKey,
      });
      return presentWithdrawal(w, deps.config.chainConfirmations);
    },
  );
}

function presentWithdrawal(w: Withdrawal, confirmations: number) {
  assert(w.txHash !== null || w.status !== 'complete', 'a completed withdrawal has its transaction');
  return {
    withdrawalId: w.id,
    txId: w.txHash,
    address: w.address,
    gross: toJsonNumber(w.grossMinor, w.currency),
    fee: toJsonNumber(w.feeMinor, w.currency),
    net: toJsonNumber(w.netMinor, w.currency),
    currency: w.currency,
    status: w.status,
    note: withdrawalNote(w, confirmations),
    createdAt: w.createdAt.toISOString(),
  };
}
