// The only reader of process.env. Every setting is validated here, once, at start, so that a
// misconfigured service refuses to start with a message that names the variable at fault.
import path from 'node:path';

export type Mode = 'sandbox' | 'live';

export interface RateLimitConfig {
  /** Registrations per client IP per minute. */
  registerPerMinute: number;
  /** Account-existence checks and lookups per client IP per minute. */
  checkPerMinute: number;
  /** Requests per API key (authenticated) or per IP (public) per minute on all other routes. */
  defaultPerMinute: number;
}

export interface Config {
  readonly mode: Mode;
  readonly port: number;
  readonly host: string;
  readonly publicUrl: string;
  readonly dataDir: string;
  /** Unset means the embedded PGlite database in `dataDir`. */
  readonly databaseUrl: string | undefined;
  readonly logLevel: string;
  readonly bodyLimitBytes: number;
  /** log2 of scrypt's cost parameter N. OWASP's floor is 17 (N = 131072). */
  readonly passwordHashCostLog2: number;
  /** How many password hashes may run at once; bounds memory (128 MiB each at cost 17). */
  readonly passwordHashConcurrency: number;
  readonly rateLimits: Readonly<RateLimitConfig>;
  readonly loginLockout: Readonly<{ maxFailures: number; windowMs: number }>;
  /** Per-transfer maximum in major units of the currency. */
  readonly maxFiatTransferMajor: bigint;
  readonly maxStablecoinOperationMajor: bigint;
  /** Per sender and currency, the most that fiat transfers may add up to in any 24 hours, in major units. */
  readonly maxFiatDailyMajor: bigint;
  /** Hex master seed for the HD wallet provider; unset in sandbox means a seed file in `dataDir`. */
  readonly masterSeedHex: string | undefined;
  /** Unset in sandbox mode means the embedded anvil chain in `dataDir`. */
  readonly chainRpcUrl: string | undefined;
  readonly chainId: number;
  /** Token contracts on an external chain (CHAIN_RPC_URL); the embedded chain has fixed ones. */
  readonly tokenAddresses: Readonly<{ USDC: `0x${string}` | undefined; EURC: `0x${string}` | undefined }>;
  /** Blocks a deposit or withdrawal needs (its own included) before it counts: 1 means mined. */
  readonly chainConfirmations: number;
  /** How many blocks the deposit watcher reads in one request. */
  readonly chainScanBlocks: number;
  /** How often the background jobs (ACH settlement, payouts) look for due work. */
  readonly jobIntervalMs: number;
  /** How often chain jobs (hot wallet outbox, withdrawals, deposits) look at the chain. */
  readonly chainPollIntervalMs: number;
  /** Where x402 payments are sent (PAY_TO); undefined means peerpay's hot wallet. */
  readonly x402PayTo: `0x${string}` | undefined;
  /** An external x402 facilitator for /verify and /settle (X402_FACILITATOR_URL); undefined means the built-in one. */
  readonly x402FacilitatorUrl: string | undefined;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

function intVar(env: Env, name: string, fallback: number, bounds: { min: number; max: number }): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < bounds.min || value > bounds.max) {
    throw new ConfigError(`${name} must be between ${bounds.min} and ${bounds.max}, got ${value}`);
  }
  return value;
}

function bigintVar(env: Env, name: string, fallback: bigint): bigint {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[1-9]\d{0,15}$/.test(raw)) throw new ConfigError(`${name} must be a positive whole number, got "${raw}"`);
  return BigInt(raw);
}

function urlVar(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}`);
  }
  return raw;
}

function addressVar(env: Env, name: string): `0x${string}` | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!/^0x[0-9a-fA-F]{40}$/.test(raw)) throw new ConfigError(`${name} must be a 0x-prefixed 20-byte hex address`);
  return raw as `0x${string}`;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env): Config {
  const mode = (env.PEERPAY_MODE ?? 'sandbox') as Mode;
  if (mode !== 'sandbox' && mode !== 'live') {
    throw new ConfigError(`PEERPAY_MODE must be "sandbox" or "live", got "${env.PEERPAY_MODE}"`);
  }
  const port = intVar(env, 'PORT', 3000, { min: 0, max: 65535 });
  const host = env.HOST || '127.0.0.1';
  const publicUrl = (urlVar(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://${host}:${port}`).replace(/\/+$/, '');
  const databaseUrl = urlVar(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const masterSeedHex = env.MASTER_SEED || undefined;
  if (masterSeedHex !== undefined && !/^(0x)?[0-9a-fA-F]{64}$/.test(masterSeedHex)) {
    throw new ConfigError('MASTER_SEED must be 32 bytes of hex (64 hex digits)');
  }
  const chainRpcUrl = urlVar(env, 'CHAIN_RPC_URL', ['http:', 'https:']);
  const tokenAddresses = { USDC: addressVar(env, 'USDC_ADDRESS'), EURC: addressVar(env, 'EURC_ADDRESS') };
  if (chainRpcUrl && (!tokenAddresses.USDC || !tokenAddresses.EURC)) {
    throw new ConfigError('USDC_ADDRESS and EURC_ADDRESS are required with CHAIN_RPC_URL');
  }
  if (!chainRpcUrl && env.CHAIN_ID && env.CHAIN_ID !== '137') {
    throw new ConfigError('CHAIN_ID must be 137 for the embedded chain (set CHAIN_RPC_URL for another chain)');
  }
  if (mode === 'live') {
    if (!chainRpcUrl) throw new ConfigError('CHAIN_RPC_URL is required in live mode');
    if (!databaseUrl) throw new ConfigError('DATABASE_URL is required in live mode');
    if (!masterSeedHex) throw new ConfigError('MASTER_SEED is required in live mode');
    // The Stripe processor adapter is not part of this release; refusing to start is the honest
    // answer rather than a live mode that cannot move money.
    throw new ConfigError('PEERPAY_MODE=live needs the Stripe processor adapter, which this release does not include yet');
  }
  return Object.freeze({
    mode,
    port,
    host,
    publicUrl,
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl,
    logLevel,
    bodyLimitBytes: intVar(env, 'BODY_LIMIT_BYTES', 64 * 1024, { min: 1024, max: 10 * 1024 * 1024 }),
    passwordHashCostLog2: intVar(env, 'PASSWORD_HASH_COST_LOG2', 17, { min: 10, max: 20 }),
    passwordHashConcurrency: intVar(env, 'PASSWORD_HASH_CONCURRENCY', 2, { min: 1, max: 64 }),
    rateLimits: Object.freeze({
      registerPerMinute: intVar(env, 'RATE_LIMIT_REGISTER_PER_MINUTE', 120, { min: 1, max: 1_000_000 }),
      checkPerMinute: intVar(env, 'RATE_LIMIT_CHECK_PER_MINUTE', 300, { min: 1, max: 1_000_000 }),
      defaultPerMinute: intVar(env, 'RATE_LIMIT_DEFAULT_PER_MINUTE', 1200, { min: 1, max: 1_000_000 }),
    }),
    loginLockout: Object.freeze({
      maxFailures: intVar(env, 'LOGIN_MAX_FAILURES', 10, { min: 1, max: 1000 }),
      windowMs: intVar(env, 'LOGIN_LOCKOUT_WINDOW_MS', 15 * 60 * 1000, { min: 1000, max: 24 * 3600 * 1000 }),
    }),
    maxFiatTransferMajor: bigintVar(env, 'MAX_FIAT_TRANSFER_MAJOR', 1_000_000n),
    maxStablecoinOperationMajor: bigintVar(env, 'MAX_STABLECOIN_OPERATION_MAJOR', 1_000_000n),
    maxFiatDailyMajor: bigintVar(env, 'MAX_FIAT_DAILY_MAJOR', 5_000_000n),
    masterSeedHex,
    jobIntervalMs: intVar(env, 'JOB_INTERVAL_MS', 5000, { min: 50, max: 3_600_000 }),
    chainRpcUrl,
    chainId: intVar(env, 'CHAIN_ID', 137, { min: 1, max: 2 ** 31 }),
    tokenAddresses: Object.freeze(tokenAddresses),
    chainConfirmations: intVar(env, 'CHAIN_CONFIRMATIONS', 1, { min: 1, max: 1000 }),
    chainScanBlocks: intVar(env, 'CHAIN_SCAN_BLOCKS', 500, { min: 1, max: 10_000 }),
    chainPollIntervalMs: intVar(env, 'CHAIN_POLL_INTERVAL_MS', 1000, { min: 50, max: 3_600_000 }),
    x402PayTo: addressVar(env, 'PAY_TO'),
    x402FacilitatorUrl: urlVar(env, 'X402_FACILITATOR_URL', ['http:', 'https:']),
  });
}
