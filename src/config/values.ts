// Values the schema has validated as text, read into what Config holds; and the defaults that
// depend on another variable (PUBLIC_URL, REDIS_KEY_PREFIX, FIAT_HOLD_HOURS).
import net from 'node:net';
import { loadLimitSettings, LimitSettingsError, type LimitSettings } from './limit-settings.js';
import { ConfigError } from './config-error.js';
import { refusal } from './refusal.js';
import type { ConfigEnv } from './schema.js';
import type { Mode } from './types.js';

/** A token amount in major units ("1000", "250.5"), as minor units of a 6-decimal token. */
export function tokenAmountMinor(major: string | undefined): bigint | undefined {
  if (major === undefined) return undefined;
  const [whole = '', fraction = ''] = major.split('.');
  return BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
}

/** WEBHOOK_RETRY_SCHEDULE_MS: comma-separated waits in milliseconds (tests shorten the retry schedule with it). */
export function scheduleMs(list: string): readonly number[] {
  return Object.freeze(list.split(',').map((part) => Number(part.trim())));
}

/** The hold is at most a year. */
const MAX_HOLD_HOURS = 8760;

/**
 * FIAT_HOLD_HOURS (DESIGN §16): a decimal number of hours, 0 to 8760 (a year); default 72 in live
 * mode and 0 in sandbox mode, where the recipient keeps receiving funds at once. In milliseconds.
 */
export function fiatHoldMs(hours: string | undefined, mode: Mode): number {
  if (hours === undefined) return mode === 'live' ? 72 * 3600_000 : 0;
  if (Number(hours) > MAX_HOLD_HOURS) throw new ConfigError(refusal('FIAT_HOLD_HOURS', hours));
  return Math.round(Number(hours) * 3600_000);
}

/** STRIPE_API_BASE: an http(s) origin, scheme, host and optional port, nothing after (a trailing slash is allowed). */
export function stripeApiOrigin(base: string): string {
  const parsed = new URL(base);
  if (
    parsed.username ||
    parsed.password ||
    parsed.pathname !== '/' ||
    parsed.search ||
    parsed.hash ||
    base.includes('?') ||
    base.includes('#')
  ) {
    throw new ConfigError('STRIPE_API_BASE must be an http or https URL with no path, query or credentials (like https://api.stripe.com)');
  }
  return parsed.origin;
}

/**
 * REDIS_KEY_PREFIX, or `peerpay:` and the database's name (DESIGN §10): two deployments or test runs
 * that share a Redis but not a database never see each other's counts.
 */
export function redisKeyPrefix(env: Pick<ConfigEnv, 'REDIS_KEY_PREFIX' | 'DATABASE_URL'>): string {
  if (env.REDIS_KEY_PREFIX !== undefined) return env.REDIS_KEY_PREFIX;
  const name = env.DATABASE_URL === undefined ? 'pglite' : decodeURIComponent(new URL(env.DATABASE_URL).pathname.slice(1)) || 'postgres';
  return `peerpay:${name}:`;
}

/** PUBLIC_URL when it is not set: the address the service listens on. */
export function defaultPublicUrl(host: string, port: number): string {
  return `http://${net.isIPv6(host) ? `[${host}]` : host}:${port}`;
}

/** LIMITS_FILE: read and checked now, so that a bad file refuses the start with one line. */
export function limitSettings(file: string | undefined): LimitSettings {
  try {
    return loadLimitSettings(file);
  } catch (error) {
    if (error instanceof LimitSettingsError) throw new ConfigError(error.message);
    throw error;
  }
}
