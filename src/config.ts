// The only reader of process.env. Every setting is validated here, once, at start, so that a
// misconfigured service refuses to start with a message that names the variable at fault.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { loadLimitSettings, LimitSettingsError, type LimitSettings } from './config/limit-settings.js';

export type Mode = 'sandbox' | 'live';

/** LOG_FORMAT: `auto` is readable logs and a start-up banner on a terminal, JSON lines elsewhere. */
export type LogFormat = 'auto' | 'json' | 'pretty';
export const LOG_FORMATS: readonly LogFormat[] = ['auto', 'json', 'pretty'];

export interface RateLimitConfig {
  /** Registrations per client IP per minute. */
  registerPerMinute: number;
  /** Account-existence checks and lookups per client IP per minute. */
  checkPerMinute: number;
  /** Requests per account (authenticated, whichever key) or per IP (public) per minute on all other routes. */
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
  /** `json`: JSON lines; `pretty`: a banner and readable lines; `auto` (default): pretty when stdout is a terminal. */
  readonly logFormat: LogFormat;
  readonly bodyLimitBytes: number;
  /** log2 of scrypt's cost parameter N. OWASP's floor is 17 (N = 131072). */
  readonly passwordHashCostLog2: number;
  /** How many password hashes may run at once; bounds memory (128 MiB each at cost 17). */
  readonly passwordHashConcurrency: number;
  /** How many password hashes may wait for a slot; beyond it requests are answered 503 busy. */
  readonly passwordHashQueueMax: number;
  readonly rateLimits: Readonly<RateLimitConfig>;
  readonly loginLockout: Readonly<{ maxFailures: number; windowMs: number }>;
  /** Per-transfer maximum in major units of the currency. */
  readonly maxFiatTransferMajor: bigint;
  readonly maxStablecoinOperationMajor: bigint;
  /** Per-account limits on outgoing volume (LIMITS_FILE, or the defaults; DESIGN §17). */
  readonly limits: LimitSettings;
  /** FIAT_HOLD_HOURS: how long money received by card is held before it is available (DESIGN §16), in ms. */
  readonly fiatHoldMs: number;
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
  /** Live mode only: the Stripe processor's settings (DESIGN §11). */
  readonly stripe:
    | Readonly<{
        secretKey: string;
        webhookSecret: string;
        apiBase: string;
        /** How long one Stripe call may take before it counts as unanswered (STRIPE_TIMEOUT_MS, 15 s). */
        requestTimeoutMs: number;
      }>
    | undefined;
  /**
   * Fastify's trustProxy: false (default), true, a hop count, or a list of addresses/CIDRs (TRUST_PROXY).
   * loadConfig never gives a hop count: Fastify 5.12 ignores one, so TRUST_PROXY refuses it.
   */
  readonly trustProxy: boolean | number | readonly string[];
  /** METRICS_PORT: /metrics on a listener of its own (same HOST); the main port then answers 404 there. */
  readonly metricsPort: number | undefined;
  /** Webhooks (DESIGN §13): the waits before each retry (WEBHOOK_RETRY_SCHEDULE_MS) and how long an endpoint has to answer. */
  readonly webhooks: Readonly<{
    retryScheduleMs: readonly number[];
    timeoutMs: number;
    maxEndpointsPerAccount: number;
    /** WEBHOOK_MAX_SOCKETS: delivery sockets one process holds open at once. */
    maxSockets: number;
    /** WEBHOOK_MAX_SOCKETS_PER_ENDPOINT: of those, to one endpoint (also the fleet's bound, by the delivery leases). */
    maxSocketsPerEndpoint: number;
  }>;
  /** REDIS_URL: rate limits shared by every process of a fleet; unset means each process counts in its memory. */
  readonly redisUrl: string | undefined;
  /** REDIS_KEY_PREFIX: every Redis key starts with it (default `peerpay:` and the database's name, then `:`). */
  readonly redisKeyPrefix: string;
  /** On SIGTERM, how long the process keeps answering while /health/ready says draining, before it stops accepting. */
  readonly drainDelayMs: number;
  /** On SIGTERM, the most the requests under way and the jobs' rounds may take before the process exits anyway (code 1). */
  readonly shutdownTimeoutMs: number;
  /** The hot wallet's liquidity, gas and ceiling (decision 0019). */
  readonly treasury: Readonly<TreasuryConfig>;
  /** How internal transfers share transactions (decision 0018). */
  readonly groupCommit: Readonly<GroupCommitConfig>;
  /** Sanctions screening (DESIGN §17, decision 0037). */
  readonly sanctions: Readonly<SanctionsConfig>;
}

export interface SanctionsConfig {
  /** SANCTIONS_LIST_FILE: one 0x address per line, `#` comments, case-insensitive; reloaded when it changes. */
  listFile: string | undefined;
  /**
   * SANCTIONS_ORACLE_ADDRESS: an on-chain oracle answering isSanctioned(address). Unset in sandbox mode
   * on the embedded chain means the stand-in oracle deployed there; unset elsewhere means no oracle.
   */
  oracleAddress: `0x${string}` | undefined;
  /** SANCTIONS_ORACLE_TIMEOUT_MS: how long one oracle call may take before screening counts as unavailable. */
  oracleTimeoutMs: number;
}

export interface GroupCommitConfig {
  /** GROUP_COMMIT_MAX_BATCH: a batch of transfers closes at this many... */
  maxBatch: number;
  /** GROUP_COMMIT_MAX_WAIT_MS: ...or when its first transfer has waited this long. */
  maxWaitMs: number;
  /** GROUP_COMMIT_CONCURRENCY: batches running at once on PostgreSQL (PGlite, one connection, runs one). */
  concurrency: number;
}

export interface TreasuryConfig {
  /** HOT_WALLET_MIN_GAS_WEI: below it, a warning, a metric and /health/ready failing its `gas` check. */
  minGasWei: bigint;
  /** CHAIN_MAX_FEE_PER_GAS_WEI: no hot wallet transaction offers more per gas, replacements included. */
  maxFeePerGasWei: bigint;
  /** CHAIN_REPLACE_AFTER_MS: a transaction not mined this long after its broadcast is replaced (same nonce, higher fee). */
  replaceAfterMs: number;
  /** WITHDRAWAL_WAIT_ALERT_MS: a withdrawal waiting for the hot wallet longer than this is reported to the operator. */
  withdrawalWaitAlertMs: number;
  /** HOT_WALLET_MAX_<TOKEN>, minor units: the excess goes to coldAddress. */
  maxMinor: Readonly<Partial<Record<'USDC' | 'EURC', bigint>>>;
  /** HOT_WALLET_MIN_<TOKEN>, minor units: below it the operator is told to top up. */
  minMinor: Readonly<Partial<Record<'USDC' | 'EURC', bigint>>>;
  /** COLD_WALLET_ADDRESS: where the excess goes; only its address is known to peerpay. */
  coldAddress: `0x${string}` | undefined;
  /** OPERATOR_TOKEN: the bootstrap admin of the operator API (/admin/*), audited as `env`; operators' own tokens are in the database. */
  operatorToken: string | undefined;
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

// Secrets (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, MASTER_SEED, the seed file's content) are
// checked by shape only, and no message below ever quotes them: a configuration error is printed to
// the terminal and the deployment's logs.
const STRIPE_SECRET_KEY_SHAPE = /^(sk|rk)_(live|test)_[A-Za-z0-9]+$/;
const STRIPE_WEBHOOK_SECRET_SHAPE = /^whsec_[A-Za-z0-9+/=]+$/;
const SEED_HEX_SHAPE = /^(0x)?[0-9a-fA-F]{64}$/;
/** A seed file is a line of hex; anything much larger is not one, and is not read whole. */
const SEED_FILE_MAX_BYTES = 1024;

function secretVar(env: Env, name: string, shape: RegExp, described: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!shape.test(raw)) throw new ConfigError(`${name} must be ${described}`);
  return raw;
}

/** An http(s) origin: scheme, host and optional port, nothing after (a trailing slash is allowed). */
function originVar(env: Env, name: string): string | undefined {
  const raw = urlVar(env, name, ['http:', 'https:']);
  if (raw === undefined) return undefined;
  const parsed = new URL(raw);
  if (
    parsed.username ||
    parsed.password ||
    parsed.pathname !== '/' ||
    parsed.search ||
    parsed.hash ||
    raw.includes('?') ||
    raw.includes('#')
  ) {
    throw new ConfigError(`${name} must be an http or https URL with no path, query or credentials (like https://api.stripe.com)`);
  }
  return parsed.origin;
}

/** MASTER_SEED, or the content of MASTER_SEED_FILE (32 bytes of hex, optional 0x, surrounding whitespace allowed). */
function masterSeedVar(env: Env): string | undefined {
  const inline = env.MASTER_SEED || undefined;
  const file = env.MASTER_SEED_FILE || undefined;
  if (inline !== undefined && file !== undefined) throw new ConfigError('MASTER_SEED and MASTER_SEED_FILE are both set; set one of them');
  if (inline !== undefined) {
    if (!SEED_HEX_SHAPE.test(inline)) throw new ConfigError('MASTER_SEED must be 32 bytes of hex (64 hex digits)');
    return inline;
  }
  if (file === undefined) return undefined;
  const resolved = path.resolve(file);
  let text: string;
  try {
    const stat = fs.statSync(resolved);
    if (!stat.isFile()) throw new ConfigError(`MASTER_SEED_FILE ${resolved} is not a file`);
    if (stat.size > SEED_FILE_MAX_BYTES)
      throw new ConfigError(`MASTER_SEED_FILE ${resolved} must hold 32 bytes of hex (64 hex digits); it is ${stat.size} bytes long`);
    text = fs.readFileSync(resolved, 'utf8').trim();
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(
      code === 'ENOENT'
        ? `MASTER_SEED_FILE ${resolved} does not exist`
        : `MASTER_SEED_FILE ${resolved} cannot be read (${code ?? 'error'})`,
    );
  }
  if (!SEED_HEX_SHAPE.test(text))
    throw new ConfigError(`MASTER_SEED_FILE ${resolved} must hold 32 bytes of hex (64 hex digits, optional 0x)`);
  return text;
}

/** proxy-addr's names for address ranges, which Fastify's trustProxy accepts in a list. */
const TRUST_PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * TRUST_PROXY: unset or false, true, or a comma-separated list of addresses, CIDRs and proxy-addr's
 * range names. A bare hop count is refused: Fastify 5.12 no longer honours one (it trusts nothing,
 * because a hop count cannot tell the proxy from a client that connects directly and writes its
 * own X-Forwarded-For), so accepting it would start a service that silently ignores the setting.
 */
function trustProxyVar(env: Env): boolean | number | readonly string[] {
  const raw = (env.TRUST_PROXY ?? '').trim();
  if (raw === '' || raw.toLowerCase() === 'false') return false;
  if (raw.toLowerCase() === 'true') return true;
  if (/^\d+$/.test(raw)) {
    throw new ConfigError(
      `TRUST_PROXY cannot be a hop count (${raw}): Fastify ignores hop counts because they let direct clients spoof X-Forwarded-For; list the proxies' addresses or CIDRs instead`,
    );
  }
  const entries = raw.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (!isTrustProxyEntry(entry)) {
      throw new ConfigError(
        `TRUST_PROXY must be true, false, or a comma-separated list of IP addresses, CIDRs and loopback/linklocal/uniquelocal; "${entry}" is none of these`,
      );
    }
  }
  return Object.freeze(entries);
}

function isTrustProxyEntry(entry: string): boolean {
  if (TRUST_PROXY_NAMES.includes(entry)) return true;
  const slash = entry.indexOf('/');
  if (slash === -1) return net.isIP(entry) !== 0;
  const version = net.isIP(entry.slice(0, slash));
  const prefix = entry.slice(slash + 1);
  if (version === 0 || !/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (version === 4 ? 32 : 128);
}

function weiVar(env: Env, name: string, fallback: bigint): bigint {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d{1,30}$/.test(raw)) throw new ConfigError(`${name} must be a whole number of wei, got "${raw}"`);
  return BigInt(raw);
}

/** A token amount in major units ("1000", "250.5"), as minor units of a 6-decimal token. */
function tokenAmountVar(env: Env, name: string): bigint | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const match = /^(\d{1,12})(?:\.(\d{1,6}))?$/.exec(raw);
  if (!match) throw new ConfigError(`${name} must be an amount in major units with at most 6 decimals, got "${raw}"`);
  return BigInt(match[1]!) * 1_000_000n + BigInt((match[2] ?? '').padEnd(6, '0'));
}

function treasuryVars(env: Env): TreasuryConfig {
  const maxMinor: Partial<Record<'USDC' | 'EURC', bigint>> = {};
  const minMinor: Partial<Record<'USDC' | 'EURC', bigint>> = {};
  for (const token of ['USDC', 'EURC'] as const) {
    const max = tokenAmountVar(env, `HOT_WALLET_MAX_${token}`);
    const min = tokenAmountVar(env, `HOT_WALLET_MIN_${token}`);
    if (max !== undefined) maxMinor[token] = max;
    if (min !== undefined) minMinor[token] = min;
    if (max !== undefined && min !== undefined && min > max)
      throw new ConfigError(`HOT_WALLET_MIN_${token} must not be above HOT_WALLET_MAX_${token}`);
  }
  const coldAddress = addressVar(env, 'COLD_WALLET_ADDRESS');
  if (Object.keys(maxMinor).length > 0 && coldAddress === undefined)
    throw new ConfigError('HOT_WALLET_MAX_USDC and HOT_WALLET_MAX_EURC need COLD_WALLET_ADDRESS (where the excess goes)');
  const operatorToken = env.OPERATOR_TOKEN || undefined;
  if (operatorToken !== undefined && !/^[\x21-\x7e]{32,256}$/.test(operatorToken))
    throw new ConfigError('OPERATOR_TOKEN must be 32 to 256 printable ASCII characters without spaces');
  return Object.freeze({
    minGasWei: weiVar(env, 'HOT_WALLET_MIN_GAS_WEI', 10n ** 18n),
    maxFeePerGasWei: weiVar(env, 'CHAIN_MAX_FEE_PER_GAS_WEI', 2_000n * 10n ** 9n),
    replaceAfterMs: intVar(env, 'CHAIN_REPLACE_AFTER_MS', 180_000, { min: 100, max: 86_400_000 }),
    withdrawalWaitAlertMs: intVar(env, 'WITHDRAWAL_WAIT_ALERT_MS', 15 * 60_000, { min: 1, max: 7 * 86_400_000 }),
    maxMinor: Object.freeze(maxMinor),
    minMinor: Object.freeze(minMinor),
    coldAddress,
    operatorToken,
  });
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env): Config {
  const mode = (env.PEERPAY_MODE ?? 'sandbox') as Mode;
  if (mode !== 'sandbox' && mode !== 'live') {
    throw new ConfigError(`PEERPAY_MODE must be "sandbox" or "live", got "${env.PEERPAY_MODE}"`);
  }
  const port = intVar(env, 'PORT', 3000, { min: 0, max: 65535 });
  const metricsPort = env.METRICS_PORT ? intVar(env, 'METRICS_PORT', 0, { min: 1, max: 65535 }) : undefined;
  if (metricsPort !== undefined && metricsPort === port) throw new ConfigError(`METRICS_PORT must differ from PORT (both are ${port})`);
  const host = env.HOST || '127.0.0.1';
  const configuredPublicUrl = urlVar(env, 'PUBLIC_URL', ['http:', 'https:']);
  if (configuredPublicUrl !== undefined && /[?#]/.test(configuredPublicUrl)) {
    // Links are PUBLIC_URL + a path; a query or fragment would end up in the middle of them.
    throw new ConfigError('PUBLIC_URL must not have a query or fragment');
  }
  const publicUrl = (configuredPublicUrl ?? defaultPublicUrl(host, port)).replace(/\/+$/, '');
  const databaseUrl = urlVar(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const logFormat = (env.LOG_FORMAT || 'auto') as LogFormat;
  if (!LOG_FORMATS.includes(logFormat))
    throw new ConfigError(`LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')}, got "${env.LOG_FORMAT}"`);
  const masterSeedHex = masterSeedVar(env);
  const chainRpcUrl = urlVar(env, 'CHAIN_RPC_URL', ['http:', 'https:']);
  const tokenAddresses = { USDC: addressVar(env, 'USDC_ADDRESS'), EURC: addressVar(env, 'EURC_ADDRESS') };
  if (!chainRpcUrl && env.CHAIN_ID && env.CHAIN_ID !== '137') {
    throw new ConfigError('CHAIN_ID must be 137 for the embedded chain (set CHAIN_RPC_URL for another chain)');
  }
  const stripeSecretKey = secretVar(
    env,
    'STRIPE_SECRET_KEY',
    STRIPE_SECRET_KEY_SHAPE,
    'a Stripe secret or restricted key: sk_live_, sk_test_, rk_live_ or rk_test_ followed by letters and digits',
  );
  const stripeWebhookSecret = secretVar(
    env,
    'STRIPE_WEBHOOK_SECRET',
    STRIPE_WEBHOOK_SECRET_SHAPE,
    'a Stripe webhook signing secret: whsec_ followed by base64',
  );
  const stripeApiBase = originVar(env, 'STRIPE_API_BASE') ?? 'https://api.stripe.com';
  const trustProxy = trustProxyVar(env);
  if (mode === 'live') {
    // DESIGN §11: live mode starts only with all of these. Every missing one is named, in one line.
    const missing = [
      ['DATABASE_URL', databaseUrl],
      ['CHAIN_RPC_URL', chainRpcUrl],
      ['USDC_ADDRESS', tokenAddresses.USDC],
      ['EURC_ADDRESS', tokenAddresses.EURC],
      ['MASTER_SEED or MASTER_SEED_FILE', masterSeedHex],
      ['PUBLIC_URL', configuredPublicUrl],
      ['STRIPE_SECRET_KEY', stripeSecretKey],
      ['STRIPE_WEBHOOK_SECRET', stripeWebhookSecret],
    ]
      .filter(([, value]) => value === undefined)
      .map(([name]) => name);
    if (missing.length > 0) throw new ConfigError(`PEERPAY_MODE=live requires ${missing.join(', ')} (not set)`);
  }
  if (chainRpcUrl && !tokenAddresses.USDC) throw new ConfigError('USDC_ADDRESS is required with CHAIN_RPC_URL');
  if (chainRpcUrl && !tokenAddresses.EURC) throw new ConfigError('EURC_ADDRESS is required with CHAIN_RPC_URL');
  const stripe =
    mode === 'live' && stripeSecretKey !== undefined && stripeWebhookSecret !== undefined
      ? Object.freeze({
          secretKey: stripeSecretKey,
          webhookSecret: stripeWebhookSecret,
          apiBase: stripeApiBase,
          requestTimeoutMs: intVar(env, 'STRIPE_TIMEOUT_MS', 15_000, { min: 100, max: 120_000 }),
        })
      : undefined;
  return Object.freeze({
    mode,
    port,
    host,
    publicUrl,
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl,
    logLevel,
    logFormat,
    bodyLimitBytes: intVar(env, 'BODY_LIMIT_BYTES', 64 * 1024, { min: 1024, max: 10 * 1024 * 1024 }),
    passwordHashCostLog2: intVar(env, 'PASSWORD_HASH_COST_LOG2', 17, { min: 10, max: 20 }),
    passwordHashConcurrency: intVar(env, 'PASSWORD_HASH_CONCURRENCY', 2, { min: 1, max: 64 }),
    passwordHashQueueMax: intVar(env, 'PASSWORD_HASH_QUEUE_MAX', 16, { min: 0, max: 10_000 }),
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
    limits: limitsVar(env),
    fiatHoldMs: holdHoursVar(env, mode),
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
    stripe,
    trustProxy,
    metricsPort,
    treasury: treasuryVars(env),
    redisUrl: urlVar(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisKeyPrefix: redisKeyPrefix(env, databaseUrl),
    drainDelayMs: intVar(env, 'DRAIN_DELAY_MS', 0, { min: 0, max: 300_000 }),
    shutdownTimeoutMs: intVar(env, 'SHUTDOWN_TIMEOUT_MS', 15_000, { min: 1000, max: 600_000 }),
    sanctions: Object.freeze({
      listFile: env.SANCTIONS_LIST_FILE ? path.resolve(env.SANCTIONS_LIST_FILE) : undefined,
      oracleAddress: addressVar(env, 'SANCTIONS_ORACLE_ADDRESS'),
      oracleTimeoutMs: intVar(env, 'SANCTIONS_ORACLE_TIMEOUT_MS', 3000, { min: 100, max: 30_000 }),
    }),
    groupCommit: Object.freeze({
      // Two events per transfer: 128 transfers stay within one events statement's bound (512).
      maxBatch: intVar(env, 'GROUP_COMMIT_MAX_BATCH', 64, { min: 1, max: 128 }),
      maxWaitMs: intVar(env, 'GROUP_COMMIT_MAX_WAIT_MS', 2, { min: 0, max: 100 }),
      concurrency: intVar(env, 'GROUP_COMMIT_CONCURRENCY', 4, { min: 1, max: 32 }),
    }),
    webhooks: Object.freeze({
      retryScheduleMs: Object.freeze(scheduleVar(env, 'WEBHOOK_RETRY_SCHEDULE_MS', DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS)),
      timeoutMs: intVar(env, 'WEBHOOK_TIMEOUT_MS', 10_000, { min: 100, max: 60_000 }),
      maxEndpointsPerAccount: intVar(env, 'WEBHOOK_MAX_ENDPOINTS', 10, { min: 1, max: 100 }),
      maxSockets: intVar(env, 'WEBHOOK_MAX_SOCKETS', 16, { min: 1, max: 1024 }),
      maxSocketsPerEndpoint: intVar(env, 'WEBHOOK_MAX_SOCKETS_PER_ENDPOINT', 2, { min: 1, max: 64 }),
    }),
  });
}

/**
 * REDIS_KEY_PREFIX, or `peerpay:` and the database's name (DESIGN §10): two deployments or test runs
 * that share a Redis but not a database never see each other's counts.
 */
function redisKeyPrefix(env: Env, databaseUrl: string | undefined): string {
  const raw = env.REDIS_KEY_PREFIX;
  if (raw !== undefined && raw !== '') {
    if (!/^[\x21-\x7e]{1,100}$/.test(raw))
      throw new ConfigError('REDIS_KEY_PREFIX must be 1 to 100 printable ASCII characters without spaces');
    return raw;
  }
  const name = databaseUrl === undefined ? 'pglite' : decodeURIComponent(new URL(databaseUrl).pathname.slice(1)) || 'postgres';
  return `peerpay:${name}:`;
}

/**
 * FIAT_HOLD_HOURS (DESIGN §16): a decimal number of hours, 0 to 8760 (a year); default 72 in live
 * mode and 0 in sandbox mode, where the recipient keeps receiving funds at once. In milliseconds.
 */
/** LIMITS_FILE: read and checked now, so that a bad file refuses the start with one line. */
function limitsVar(env: Env): LimitSettings {
  try {
    return loadLimitSettings(env.LIMITS_FILE || undefined);
  } catch (error) {
    if (error instanceof LimitSettingsError) throw new ConfigError(error.message);
    throw error;
  }
}

function holdHoursVar(env: Env, mode: Mode): number {
  const raw = env.FIAT_HOLD_HOURS;
  if (raw === undefined || raw === '') return mode === 'live' ? 72 * 3600_000 : 0;
  if (!/^\d{1,4}(\.\d{1,6})?$/.test(raw.trim()) || Number(raw) > 8760) {
    throw new ConfigError(`FIAT_HOLD_HOURS must be a number of hours from 0 to 8760 (decimals allowed), got "${raw.slice(0, 32)}"`);
  }
  return Math.round(Number(raw) * 3600_000);
}

/** About 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (DESIGN §13): eight attempts over about 28 hours. */
const DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

/** A comma-separated list of waits in milliseconds (tests shorten the retry schedule with it). */
function scheduleVar(env: Env, name: string, fallback: number[]): number[] {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.length > 20 || !parts.every((part) => /^\d{1,9}$/.test(part))) {
    throw new ConfigError(`${name} must be up to 20 comma-separated whole numbers of milliseconds, got "${raw.slice(0, 100)}"`);
  }
  return parts.map(Number);
}

/** PUBLIC_URL when it is not set: the address the service listens on. */
function defaultPublicUrl(host: string, port: number): string {
  return `http://${net.isIPv6(host) ? `[${host}]` : host}:${port}`;
}

/**
 * The configuration once PORT is bound: with PORT=0 the system chose the port, and PUBLIC_URL,
 * when it was not set, names the chosen one (links and the banner carry it).
 */
export function withListeningPort(config: Config, port: number): Config {
  if (config.port === port) return config;
  const publicUrl =
    config.publicUrl === defaultPublicUrl(config.host, config.port) ? defaultPublicUrl(config.host, port) : config.publicUrl;
  return Object.freeze({ ...config, port, publicUrl });
}
