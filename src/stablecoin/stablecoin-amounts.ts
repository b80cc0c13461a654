// Input rules shared by every stablecoin operation (transfers, quotes, and withdrawals later): which
// token, how much, and what the 1.49% fee leaves. Each refusal is an AppError with the code the
// contract's clients can act on; nothing here touches the database.
import { formatMinorTrimmed, parseAmount } from '../money/amount.js';
import { STABLECOIN_MINIMUM_MINOR, type StablecoinOperation } from '../money/minimums.js';
import { exponentOf, isToken, TOKENS, type Token } from '../money/assets.js';
import { STABLECOIN_FEE_RATE, stablecoinFee, type FeeRate } from '../money/fees.js';
import { AppError } from '../platform/errors.js';

/** The token a client named; case-insensitive ("usdc" is USDC), as the fiat rail reads currencies. */
export function tokenOf(raw: string): Token {
  const code = raw.trim().toUpperCase();
  if (!isToken(code)) throw new AppError('unsupported_currency', `Unsupported currency "${raw.slice(0, 16)}"; use ${TOKENS.join(' or ')}.`);
  return code;
}

/** An amount in major units (a JSON number, or a decimal string from a query) as minor units of `token`. */
export function tokenAmountOf(input: number | string, token: Token, maxMajor: bigint): bigint {
  const parsed = parseAmount(input, token, maxMajor);
  if (parsed.ok) return parsed.minor;
  switch (parsed.problem) {
    case 'too_large':
      throw new AppError('amount_too_large', `The amount is over the maximum of ${maxMajor} ${token} per operation.`);
    case 'too_many_decimals':
      throw new AppError('invalid_amount', `${token} amounts have at most ${exponentOf(token)} decimals.`);
    case 'not_positive':
      throw new AppError('invalid_amount', 'The amount must be greater than zero.');
    case 'not_a_number':
      throw new AppError('invalid_amount', 'The amount must be a finite number.');
  }
}

export interface Priced {
  amountMinor: bigint;
  feeMinor: bigint;
  /** What the recipient receives: amount - fee, always > 0. */
  netMinor: bigint;
}

/** The fee deducted from `amountMinor`; an amount whose fee would leave nothing is refused. */
export function priceWithFee(amountMinor: bigint, rate: FeeRate = STABLECOIN_FEE_RATE): Priced {
  const priced = stablecoinFee(amountMinor, rate);
  if (!priced) throw new AppError('invalid_amount', `The ${rate.label} fee would leave nothing for the recipient; send a larger amount.`);
  return { amountMinor, feeMinor: priced.fee, netMinor: priced.net };
}

/**
 * A stablecoin operation's price: refused below its minimum (DESIGN §15: transfers 0.01,
 * withdrawals 1.00) with 400 amount_too_small and `minimum` as a decimal string; then the fee.
 */
export function priceOperation(amountMinor: bigint, token: Token, operation: StablecoinOperation): Priced {
  const minimumMinor = STABLECOIN_MINIMUM_MINOR[operation][token];
  if (amountMinor < minimumMinor) {
    const minimum = formatMinorTrimmed(minimumMinor, token);
    const why = operation === 'withdrawal' ? ' (its fee pays for the chain transaction)' : '';
    throw new AppError('amount_too_small', `The smallest ${token} ${operation} is ${minimum} ${token}${why}.`, { minimum });
  }
  return priceWithFee(amountMinor);
}
