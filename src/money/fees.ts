// Fee rules (DESIGN §4). Rates are integers in parts per 10,000 (2.49% is 249), so fee arithmetic
// stays in bigint. Fees round half-up to the minor unit, and every transfer and withdrawal fee is
// at least one minor unit (DESIGN §15): an amount too small to carry a fee still pays one unit, so
// that no movement is free. (x402 calls carry no fee; they never come here.)
export type FiatPaymentMethod = 'instant' | 'ach';

const RATE_DENOMINATOR = 10_000n;

export interface FeeRate {
  /** Parts per 10,000: 249 is 2.49%. */
  readonly perTenThousand: bigint;
  /** As the contract prints it: "2.49%". */
  readonly label: string;
}

export const FIAT_FEE_RATES: Record<FiatPaymentMethod, FeeRate> = {
  instant: { perTenThousand: 249n, label: '2.49%' },
  ach: { perTenThousand: 80n, label: '0.8%' },
};

export const STABLECOIN_FEE_RATE: FeeRate = { perTenThousand: 149n, label: '1.49%' };

/** The smallest fee of any transfer or withdrawal: one minor unit. */
export const MINIMUM_FEE_MINOR = 1n;

/** Fee on `amountMinor` at `rate`, rounded half-up to the minor unit (before the one-unit floor). */
export function feeFor(amountMinor: bigint, rate: FeeRate): bigint {
  if (amountMinor <= 0n) throw new RangeError('fee of a non-positive amount');
  return (amountMinor * rate.perTenThousand + RATE_DENOMINATOR / 2n) / RATE_DENOMINATOR;
}

/** A transfer's or withdrawal's fee: the rounded rate, at least one minor unit. */
function operationFee(amountMinor: bigint, rate: FeeRate): bigint {
  const fee = feeFor(amountMinor, rate);
  return fee > MINIMUM_FEE_MINOR ? fee : MINIMUM_FEE_MINOR;
}

/** Fiat: the fee is paid on top; the recipient receives the full amount. */
export function fiatFee(amountMinor: bigint, method: FiatPaymentMethod) {
  const fee = operationFee(amountMinor, FIAT_FEE_RATES[method]);
  return { fee, totalDeducted: amountMinor + fee };
}

/**
 * Stablecoin: the fee comes out of the amount. Null when nothing would be left for the recipient
 * (at 1.49% only an amount of one minor unit, whose one-unit fee is the whole of it).
 */
export function stablecoinFee(amountMinor: bigint, rate: FeeRate = STABLECOIN_FEE_RATE): { fee: bigint; net: bigint } | null {
  const fee = operationFee(amountMinor, rate);
  const net = amountMinor - fee;
  return net > 0n ? { fee, net } : null;
}
