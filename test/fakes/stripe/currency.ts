// The currencies peerpay charges in, with Stripe's minimum charge amounts in each currency's smallest
// unit (JPY is zero-decimal: 50 means ¥50). Stripe documents currency codes as lower-case ISO codes;
// the stand-in refuses upper case so that peerpay cannot come to rely on any leniency.
import { parameterError } from './errors.js';

export type Currency = 'usd' | 'eur' | 'gbp' | 'jpy';

interface CurrencyRule {
  minimum: number;
  symbol: string;
  decimals: 0 | 2;
}

const RULES: Record<Currency, CurrencyRule> = {
  usd: { minimum: 50, symbol: '$', decimals: 2 },
  eur: { minimum: 50, symbol: '€', decimals: 2 },
  gbp: { minimum: 30, symbol: '£', decimals: 2 },
  jpy: { minimum: 50, symbol: '¥', decimals: 0 },
};

/** Stripe's maximum amount is eight digits in the smallest unit. */
const MAXIMUM = 99_999_999;

export const CURRENCIES = Object.keys(RULES) as Currency[];

function isCurrency(value: string): value is Currency {
  return Object.prototype.hasOwnProperty.call(RULES, value);
}

export function readCurrency(value: string, param = 'currency'): Currency {
  if (value !== value.toLowerCase()) {
    throw parameterError(`Invalid currency: ${value}. Currency codes must be lower-case ISO codes (e.g. '${value.toLowerCase()}').`, {
      param,
    });
  }
  if (!isCurrency(value)) {
    throw parameterError(`Invalid currency: ${value}. The Stripe stand-in supports these currencies: ${CURRENCIES.join(', ')}.`, { param });
  }
  return value;
}

function display(amount: number, currency: Currency): string {
  const rule = RULES[currency];
  const major = rule.decimals === 0 ? String(amount) : (amount / 100).toFixed(2);
  return `${rule.symbol}${major} ${currency}`;
}

/** A positive integer in the smallest unit; for charges also at least Stripe's minimum. */
export function checkAmount(amount: number, currency: Currency, opts: { charge: boolean }): void {
  if (amount < 1)
    throw parameterError('This value must be greater than or equal to 1.', { code: 'parameter_invalid_integer', param: 'amount' });
  if (amount > MAXIMUM)
    throw parameterError(`Amount must be no more than ${display(MAXIMUM, currency)}`, { code: 'amount_too_large', param: 'amount' });
  if (opts.charge && amount < RULES[currency].minimum) {
    throw parameterError(`Amount must be at least ${display(RULES[currency].minimum, currency)}`, {
      code: 'amount_too_small',
      param: 'amount',
    });
  }
}
