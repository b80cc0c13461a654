// Fee rules (DESIGN §4). Rates are integers in parts per 10,000 (2.49% is 249), so fee arithmetic
// stays in bigint. Fees round half-up to the minor unit.
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

/** Fee on `amountMinor` at `rate`, rounded half-up to the minor unit. */
export function feeFor(amountMinor: bigint, rate: FeeRate): bigint {
  if (amountMinor <= 0n) throw new RangeError('fee of a non-positive amount');
  return (amountMinor * rate.perTenThousand + RATE_DENOMINATOR / 2n) / RATE_DENOMINATOR;
}

/** Fiat: the fee is paid on top; the recipient receives the full amount. */
export function fiatFee(amountMinor: bigint, method: FiatPaymentMethod) {
  const fee = feeFor(amountMinor, FIAT_FEE_RATES[method]);
  return { fee, totalDeducted: amountMinor + fee };
}

/**
 * Stablecoin: the fee comes out of the amount. Null when nothing would be left for the recipient
 * (which 1.49% never causes; the rate is a parameter so that the guard holds for any rate).
 */
export function stablecoinFee(amountMinor: bigint, rate: FeeRate = STABLECOIN_FEE_RATE): { fee: bigint; net: bigint } | null {
  const fee = feeFor(amountMinor, rate);
  const net = amountMinor - fee;
  return net > 0n ? { fee, net } : null;
}
