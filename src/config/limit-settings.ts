// The limits' settings (DESIGN §17): DEFAULT_LIMITS, or LIMITS_FILE, a JSON file read once at
// start and checked strictly, so that a typo refuses to start rather than leave a limit unset.
// The file names only what it changes:
//   {"currencies": {"USD": {"day": "20000", "month": "100000"}}, "newAccounts": {"days": 7, "divisor": 10}}
// Amounts are major units (decimal strings or JSON numbers); a currency left out keeps its defaults.
import fs from 'node:fs';
import { FIAT_CURRENCIES, TOKENS, exponentOf, type Asset } from '../money/assets.js';
import { parseAmount } from '../money/amount.js';

export const LIMITED_ASSETS: readonly Asset[] = [...FIAT_CURRENCIES, ...TOKENS];

/** The spans a limit covers: the last 24 hours and the last 30 days. */
export type LimitWindow = 'day' | 'month';

export type WindowLimits = Readonly<Record<LimitWindow, bigint>>;

export interface LimitSettings {
  /** Per currency or token, in minor units. */
  readonly limits: Readonly<Record<Asset, WindowLimits>>;
  /** Accounts younger than this many days get their limits divided by `newAccountDivisor`. */
  readonly newAccountDays: number;
  readonly newAccountDivisor: bigint;
}

const MAJOR: Readonly<Record<Asset, readonly [string, string]>> = {
  USD: ['10000', '50000'],
  EUR: ['10000', '50000'],
  GBP: ['10000', '50000'],
  USDC: ['10000', '50000'],
  EURC: ['10000', '50000'],
  JPY: ['1500000', '7500000'],
};

/** The largest limit a file may set, in major units (far above any real one, far below bigint's reach in SQL). */
const MAX_LIMIT_MAJOR = 1_000_000_000_000n;

function minor(major: string, asset: Asset): bigint {
  return BigInt(major) * 10n ** BigInt(exponentOf(asset));
}

export const DEFAULT_LIMITS: LimitSettings = Object.freeze({
  limits: Object.fromEntries(
    LIMITED_ASSETS.map((asset) => [asset, Object.freeze({ day: minor(MAJOR[asset][0], asset), month: minor(MAJOR[asset][1], asset) })]),
  ) as Record<Asset, WindowLimits>,
  newAccountDays: 7,
  newAccountDivisor: 10n,
});

/** A LIMITS_FILE that cannot be used; its message is the one line the start prints. */
export class LimitSettingsError extends Error {}

/** Reads and checks LIMITS_FILE; undefined means the defaults. */
export function loadLimitSettings(file: string | undefined): LimitSettings {
  if (file === undefined) return DEFAULT_LIMITS;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new LimitSettingsError(`LIMITS_FILE ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new LimitSettingsError(`LIMITS_FILE ${file} is not valid JSON`);
  }
  try {
    return parseLimitSettings(parsed);
  } catch (error) {
    if (error instanceof LimitSettingsError) throw new LimitSettingsError(`LIMITS_FILE ${file}: ${error.message}`);
    throw error;
  }
}

/** The settings a parsed LIMITS_FILE describes, over the defaults. */
export function parseLimitSettings(value: unknown): LimitSettings {
  const root = objectOf(value, 'the file', ['currencies', 'newAccounts']);
  const limits: Record<Asset, WindowLimits> = { ...DEFAULT_LIMITS.limits };
  if (root.currencies !== undefined) {
    const currencies = objectOf(root.currencies, 'currencies', LIMITED_ASSETS);
    for (const [asset, entry] of Object.entries(currencies) as [Asset, unknown][]) {
      const windows = objectOf(entry, `currencies.${asset}`, ['day', 'month']);
      const day = windows.day === undefined ? limits[asset].day : limitOf(windows.day, asset, `currencies.${asset}.day`);
      const month = windows.month === undefined ? limits[asset].month : limitOf(windows.month, asset, `currencies.${asset}.month`);
      if (day > month) throw new LimitSettingsError(`currencies.${asset}: the day limit must not be above the month limit`);
      limits[asset] = { day, month };
    }
  }
  let newAccountDays = DEFAULT_LIMITS.newAccountDays;
  let newAccountDivisor = DEFAULT_LIMITS.newAccountDivisor;
  if (root.newAccounts !== undefined) {
    const young = objectOf(root.newAccounts, 'newAccounts', ['days', 'divisor']);
    if (young.days !== undefined) newAccountDays = wholeOf(young.days, 'newAccounts.days', 0, 365);
    if (young.divisor !== undefined) newAccountDivisor = BigInt(wholeOf(young.divisor, 'newAccounts.divisor', 1, 1_000_000));
  }
  return { limits, newAccountDays, newAccountDivisor };
}

function objectOf(value: unknown, where: string, allowed: readonly string[]): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new LimitSettingsError(`${where} must be an object`);
  for (const key of Object.keys(value))
    if (!allowed.includes(key))
      throw new LimitSettingsError(`${where}: unknown key "${key.slice(0, 32)}" (allowed: ${allowed.join(', ')})`);
  return value as Record<string, unknown>;
}

function limitOf(value: unknown, asset: Asset, where: string): bigint {
  if (typeof value !== 'string' && typeof value !== 'number')
    throw new LimitSettingsError(`${where} must be an amount in ${asset} (a decimal string or a number)`);
  if (value === 0 || (typeof value === 'string' && /^0+(\.0+)?$/.test(value.trim()))) return 0n;
  const parsed = parseAmount(value, asset, MAX_LIMIT_MAJOR);
  if (!parsed.ok) {
    const why =
      parsed.problem === 'too_many_decimals'
        ? `has more than ${exponentOf(asset)} decimals`
        : parsed.problem === 'too_large'
          ? `is above ${MAX_LIMIT_MAJOR}`
          : 'is not an amount of zero or more';
    throw new LimitSettingsError(`${where} ${why}`);
  }
  return parsed.minor;
}

function wholeOf(value: unknown, where: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new LimitSettingsError(`${where} must be a whole number from ${min} to ${max}`);
  return value;
}
