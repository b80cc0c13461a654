// The assets peerpay moves and their minor-unit exponents (DESIGN §4).
export const FIAT_CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY'] as const;
export const TOKENS = ['USDC', 'EURC'] as const;

export type FiatCurrency = (typeof FIAT_CURRENCIES)[number];
export type Token = (typeof TOKENS)[number];
export type Asset = FiatCurrency | Token;

const EXPONENTS: Record<Asset, number> = { USD: 2, EUR: 2, GBP: 2, JPY: 0, USDC: 6, EURC: 6 };

export function exponentOf(asset: Asset): number {
  return EXPONENTS[asset];
}

export function isFiatCurrency(value: unknown): value is FiatCurrency {
  return typeof value === 'string' && (FIAT_CURRENCIES as readonly string[]).includes(value);
}

export function isToken(value: unknown): value is Token {
  return typeof value === 'string' && (TOKENS as readonly string[]).includes(value);
}
