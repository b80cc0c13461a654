// GET /nano/quote: what an operation of `amount` would cost, by the same fee rules as the
// operation itself (money/fees.ts), formatted as that rail formats it:
// - transfer, withdraw (stablecoin, USDC or EURC): 1.49% deducted; JSON numbers, as the
//   stablecoin quote and transfer objects are;
// - instant, ach (fiat, USD, EUR, GBP or JPY): 2.49% or 0.8% on top; decimal strings with the
//   currency's decimals, as fiat transfer objects are.
// Every check happens here, before any payment is asked for, and it is the operation's own: an
// amount under the operation's minimum (DESIGN §15) is amount_too_small here too.
import type { Config } from '../config.js';
import { formatMinor, parseAmount, toJsonNumber, type AmountProblem } from '../money/amount.js';
import {
  exponentOf,
  FIAT_CURRENCIES,
  isFiatCurrency,
  isToken,
  TOKENS,
  type Asset,
  type FiatCurrency,
  type Token,
} from '../money/assets.js';
import { FIAT_FEE_RATES, fiatFee, STABLECOIN_FEE_RATE } from '../money/fees.js';
import { checkFiatMinimum } from '../fiat/fiat-transfer-service.js';
import { priceOperation } from '../stablecoin/stablecoin-amounts.js';
import { AppError } from '../platform/errors.js';

export const QUOTE_ACTIONS = ['transfer', 'withdraw', 'instant', 'ach'] as const;
export type QuoteAction = (typeof QUOTE_ACTIONS)[number];

export interface QuoteRequest {
  action: QuoteAction;
  currency: Asset;
  amountMinor: bigint;
}

export type FeeQuote =
  | { action: 'transfer' | 'withdraw'; amount: number; fee: number; feeRate: string; recipientReceives: number; currency: string }
  | {
      action: 'instant' | 'ach';
      amount: string;
      fee: string;
      feeRate: string;
      totalDeducted: string;
      recipientReceives: string;
      currency: string;
    };

export function quoteRequestOf(
  params: { amount?: string | undefined; currency?: string | undefined; action?: string | undefined },
  limits: Pick<Config, 'maxStablecoinOperationMajor' | 'maxFiatTransferMajor'>,
): QuoteRequest {
  const action = (params.action ?? 'transfer').trim().toLowerCase();
  if (!(QUOTE_ACTIONS as readonly string[]).includes(action)) {
    throw new AppError('invalid_request', `action must be one of ${QUOTE_ACTIONS.join(', ')}.`);
  }
  const stablecoin = action === 'transfer' || action === 'withdraw';
  const currency = (params.currency ?? (stablecoin ? 'USDC' : 'USD')).trim().toUpperCase();
  if (stablecoin ? !isToken(currency) : !isFiatCurrency(currency)) {
    const allowed = stablecoin ? TOKENS : FIAT_CURRENCIES;
    throw new AppError('unsupported_currency', `For ${action}, currency must be one of ${allowed.join(', ')}.`);
  }
  if (params.amount === undefined) throw new AppError('invalid_amount', 'amount is required.');
  const maxMajor = stablecoin ? limits.maxStablecoinOperationMajor : limits.maxFiatTransferMajor;
  const parsed = parseAmount(params.amount, currency as Asset, maxMajor);
  if (!parsed.ok) throw amountError(parsed.problem, currency as Asset, maxMajor);
  if (stablecoin) priceOperation(parsed.minor, currency as Token, action === 'withdraw' ? 'withdrawal' : 'transfer');
  else checkFiatMinimum(parsed.minor, currency as FiatCurrency, action as 'instant' | 'ach');
  return { action: action as QuoteAction, currency: currency as Asset, amountMinor: parsed.minor };
}

function amountError(problem: AmountProblem, currency: Asset, maxMajor: bigint): AppError {
  switch (problem) {
    case 'too_large':
      return new AppError('amount_too_large', `The amount is over the maximum of ${maxMajor} ${currency}.`);
    case 'too_many_decimals':
      return new AppError('invalid_amount', `${currency} amounts have at most ${exponentOf(currency)} decimals.`);
    case 'not_positive':
      return new AppError('invalid_amount', 'The amount must be greater than zero.');
    case 'not_a_number':
      return new AppError('invalid_amount', 'The amount must be a decimal number such as 10 or 12.5.');
  }
}

export function feeQuote(request: QuoteRequest): FeeQuote {
  const { action, currency, amountMinor } = request;
  if (action === 'transfer' || action === 'withdraw') {
    const priced = priceOperation(amountMinor, currency as Token, action === 'withdraw' ? 'withdrawal' : 'transfer');
    return {
      action,
      amount: toJsonNumber(amountMinor, currency),
      fee: toJsonNumber(priced.feeMinor, currency),
      feeRate: STABLECOIN_FEE_RATE.label,
      recipientReceives: toJsonNumber(priced.netMinor, currency),
      currency,
    };
  }
  const { fee, totalDeducted } = fiatFee(amountMinor, action);
  return {
    action,
    amount: formatMinor(amountMinor, currency),
    fee: formatMinor(fee, currency),
    feeRate: FIAT_FEE_RATES[action].label,
    totalDeducted: formatMinor(totalDeducted, currency),
    recipientReceives: formatMinor(amountMinor, currency),
    currency,
  };
}
