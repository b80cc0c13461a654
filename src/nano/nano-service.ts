// One paid call: the parameters were checked (by the route) before this runs; here the payment is
// taken — an x402 authorization verified and settled on chain, or the caller's own USDC balance
// charged — and only then is the answer handed back. Any refusal becomes a 402 that carries the
// payment requirements again, with the x402 specification's reason in `error`.
// Money moves last: only once the request is known to have been received whole, on a connection
// still open (`received`), so that no refusal of the request (by Node's HTTP parser, which may still
// be reading it while this runs) can follow a payment. Every refusal by peerpay itself (rate limit,
// authentication, validation, bad parameters) comes before this runs.
import { encodePaymentResponseHeader } from '@x402/core/http';
import { AppError } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { createNanoFacilitator, type NanoFacilitator } from './facilitator.js';
import { readPaymentHeader } from './payment-header.js';
import { paymentRequiredAnswer, requirementsV1, requirementsV2 } from './payment-requirements.js';
import { endpointKey, priceText, type NanoEndpoint } from './pricing.js';
import { settleAndServe } from './settle-payment.js';
import { verifyPayment } from './verify-payment.js';
import { chargeBalance } from './x402-ledger.js';
import { assertNotFrozen, refuseIfFrozen } from '../compliance/freezes/freeze-checks.js';
import { recordEvent } from '../events/record-event.js';
import { presentX402Payment } from './x402-payment-view.js';
import { insertBalancePayment } from './x402-payments-repository.js';
import { PaymentRefused } from './x402-reasons.js';
import { x402TermsOf, type X402Terms } from './x402-terms.js';
import type { ChainConnection } from '../adapters/chain/connect-chain.js';
import type { WalletProvider } from '../adapters/wallet/wallet-provider.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';

export type NanoDeps = { config: Config; db: Db; chain: ChainConnection; wallets: WalletProvider; clock: Clock };

export interface NanoContext {
  deps: NanoDeps;
  terms: X402Terms;
  facilitator: NanoFacilitator;
}

export function createNanoContext(deps: NanoDeps): NanoContext {
  const terms = x402TermsOf(deps);
  return { deps, terms, facilitator: createNanoFacilitator(deps, terms) };
}

export type PaymentChoice = { kind: 'none' } | { kind: 'balance'; accountId: number } | { kind: 'x402'; version: 1 | 2; header: string };

export interface PaidAnswer<T> {
  body: T;
  headers: Record<string, string>;
}

export async function servePaid<T>(
  ctx: NanoContext,
  input: {
    endpoint: NanoEndpoint;
    resourceUrl: string;
    choice: PaymentChoice;
    compute: () => Promise<T>;
    /** Whether the request was received whole on a connection still open: asked just before money moves. */
    received: () => Promise<boolean>;
  },
): Promise<PaidAnswer<T>> {
  const beforeMoneyMoves = async () => {
    if (!(await input.received()))
      throw new AppError(
        'invalid_request',
        'The request was not received whole (the HTTP parser refused it or the connection closed); nothing was charged.',
      );
  };
  try {
    switch (input.choice.kind) {
      case 'none':
        throw new PaymentRefused('invalid_payload', 'payment required');
      case 'balance':
        // Before anything else about the payment (DESIGN §17): 403, not a 402 asking to pay.
        await refuseIfFrozen(ctx.deps.db, input.choice.accountId, 'other');
        return await payFromBalance(ctx, input.endpoint, input.choice.accountId, input.compute, beforeMoneyMoves);
      case 'x402':
        return await payOnChain(ctx, input.endpoint, input.resourceUrl, input.choice, input.compute, beforeMoneyMoves);
    }
  } catch (error) {
    if (!(error instanceof PaymentRefused)) throw error;
    const unpaid = input.choice.kind === 'none';
    // The reference servers' wording for a request that carries no payment at all.
    const reason = unpaid ? 'X-PAYMENT or PAYMENT-SIGNATURE header is required' : error.reason;
    const answer = paymentRequiredAnswer(ctx.terms, input.endpoint, input.resourceUrl, reason);
    const detail = unpaid
      ? `${endpointKey(input.endpoint)} costs ${priceText(input.endpoint)} USDC: pay with x402, or send X-Payment-Source: balance with an API key.`
      : `The payment was refused (${error.reason}): ${error.detail}`;
    // The price as GET /nano states it (a decimal string of USDC); the x402 members count base units.
    throw new AppError('payment_required', detail, { price: priceText(input.endpoint), ...answer.body }, answer.headers);
  }
}

async function payOnChain<T>(
  ctx: NanoContext,
  endpoint: NanoEndpoint,
  resourceUrl: string,
  choice: { version: 1 | 2; header: string },
  compute: () => Promise<T>,
  beforeMoneyMoves: () => Promise<void>,
): Promise<PaidAnswer<T>> {
  const payment = readPaymentHeader(choice.header, choice.version);
  const requirements = payment.version === 1 ? requirementsV1(ctx.terms, endpoint, resourceUrl) : requirementsV2(ctx.terms, endpoint);
  if (requirements === null)
    throw new PaymentRefused('invalid_x402_version', 'x402 version 1 has no name for this chain; pay with version 2');
  const { payer } = await verifyPayment(ctx, payment, { priceMinor: endpoint.priceMinor, requirements });
  // Before the authorization is claimed and settled: a request refused now leaves it unused.
  await beforeMoneyMoves();
  const { result, settlement } = await settleAndServe(ctx, { payment, payer, endpoint, requirements, compute });
  const header = encodePaymentResponseHeader({
    success: true,
    transaction: settlement.transaction,
    network: settlement.network as `${string}:${string}`,
    payer: settlement.payer,
  });
  return { body: result, headers: { [payment.version === 1 ? 'X-PAYMENT-RESPONSE' : 'PAYMENT-RESPONSE']: header } };
}

async function payFromBalance<T>(
  ctx: NanoContext,
  endpoint: NanoEndpoint,
  accountId: number,
  compute: () => Promise<T>,
  beforeMoneyMoves: () => Promise<void>,
): Promise<PaidAnswer<T>> {
  const result = await compute();
  await beforeMoneyMoves();
  const id = newId('x402');
  try {
    await ctx.deps.db.transaction().execute(async (trx) => {
      const now = ctx.deps.clock.now();
      // Holds the account against a freeze until the charge commits (decision 0035).
      await assertNotFrozen(trx, accountId, 'other');
      await insertBalancePayment(trx, { id, endpoint: endpointKey(endpoint), amountMinor: endpoint.priceMinor, accountId, now });
      await chargeBalance(trx, { id, accountId, amountMinor: endpoint.priceMinor });
      // Paid from balance: the paying account is the one peerpay knows, and it is told.
      const data = presentX402Payment({
        id,
        endpoint: endpointKey(endpoint),
        amountMinor: endpoint.priceMinor,
        source: 'balance',
        settledAt: now,
      });
      await recordEvent(trx, { accountId, type: 'x402.payment.settled', subjectId: id, data, now });
    });
  } catch (error) {
    if (error instanceof AppError && error.code === 'insufficient_balance') {
      throw new PaymentRefused('insufficient_funds', 'your available USDC balance is less than the price');
    }
    throw error;
  }
  return { body: result, headers: { 'X-Payment-Source': 'balance', 'X-Payment-Id': id } };
}
