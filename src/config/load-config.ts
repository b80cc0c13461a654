// loadConfig: the environment through the schema (read-env.ts), then the rules between variables,
// then the frozen Config, section by section. The only reader of process.env.
import path from 'node:path';
import { circleSettings } from './circle-settings.js';
import { masterSeed } from './master-seed.js';
import { readEnv, type RawEnv } from './read-env.js';
import { checkEmbeddedChainId, checkHotWalletBounds, checkLiveRequirements, checkMetricsPort, checkTokenAddresses } from './rules.js';
import type { ConfigEnv } from './schema.js';
import { trustProxy } from './trust-proxy.js';
import type { Config, TreasuryConfig } from './types.js';
import { defaultPublicUrl, fiatHoldMs, limitSettings, redisKeyPrefix, scheduleMs, stripeApiOrigin, tokenAmountMinor } from './values.js';

export function loadConfig(raw: RawEnv = process.env): Config {
  const env = readEnv(raw);
  checkMetricsPort(env);
  checkEmbeddedChainId(env);
  const masterSeedHex = masterSeed(env);
  checkLiveRequirements(env, masterSeedHex);
  checkTokenAddresses(env);
  return Object.freeze({
    ...serviceSettings(env),
    ...accountSettings(env),
    ...moneySettings(env),
    ...chainSettings(env, masterSeedHex),
    walletProvider: env.WALLET_PROVIDER,
    circle: circleSettings(env),
    treasury: treasurySettings(env),
    sanctions: Object.freeze({
      listFile: env.SANCTIONS_LIST_FILE === undefined ? undefined : path.resolve(env.SANCTIONS_LIST_FILE),
      oracleAddress: address(env.SANCTIONS_ORACLE_ADDRESS),
      oracleTimeoutMs: env.SANCTIONS_ORACLE_TIMEOUT_MS,
    }),
    groupCommit: Object.freeze({
      maxBatch: env.GROUP_COMMIT_MAX_BATCH,
      maxWaitMs: env.GROUP_COMMIT_MAX_WAIT_MS,
      concurrency: env.GROUP_COMMIT_CONCURRENCY,
    }),
    webhooks: Object.freeze({
      retryScheduleMs: scheduleMs(env.WEBHOOK_RETRY_SCHEDULE_MS),
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
      maxEndpointsPerAccount: env.WEBHOOK_MAX_ENDPOINTS,
      maxSockets: env.WEBHOOK_MAX_SOCKETS,
      maxSocketsPerEndpoint: env.WEBHOOK_MAX_SOCKETS_PER_ENDPOINT,
    }),
  });
}

/** An address the schema has checked (0x and 40 hex digits), typed as one. */
function address(value: string | undefined): `0x${string}` | undefined {
  return value as `0x${string}` | undefined;
}

/** Where and how the process listens, logs, stores and stops. */
function serviceSettings(env: ConfigEnv) {
  return {
    mode: env.PEERPAY_MODE,
    port: env.PORT,
    host: env.HOST,
    publicUrl: (env.PUBLIC_URL ?? defaultPublicUrl(env.HOST, env.PORT)).replace(/\/+$/, ''),
    dataDir: path.resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL,
    preparedStatements: env.DATABASE_PREPARED_STATEMENTS === 'on',
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT,
    console: env.CONSOLE === 'on',
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    trustProxy: trustProxy(env.TRUST_PROXY),
    metricsPort: env.METRICS_PORT,
    redisUrl: env.REDIS_URL,
    redisKeyPrefix: redisKeyPrefix(env),
    drainDelayMs: env.DRAIN_DELAY_MS,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
  } satisfies Partial<Config>;
}

/** Password hashing, rate limits and sign-in lock-outs. */
function accountSettings(env: ConfigEnv) {
  return {
    passwordHashCostLog2: env.PASSWORD_HASH_COST_LOG2,
    passwordHashConcurrency: env.PASSWORD_HASH_CONCURRENCY,
    passwordHashQueueMax: env.PASSWORD_HASH_QUEUE_MAX,
    rateLimits: Object.freeze({
      registerPerMinute: env.RATE_LIMIT_REGISTER_PER_MINUTE,
      checkPerMinute: env.RATE_LIMIT_CHECK_PER_MINUTE,
      defaultPerMinute: env.RATE_LIMIT_DEFAULT_PER_MINUTE,
    }),
    loginLockout: Object.freeze({ maxFailures: env.LOGIN_MAX_FAILURES, windowMs: env.LOGIN_LOCKOUT_WINDOW_MS }),
  } satisfies Partial<Config>;
}

/** Per-operation maxima, account limits, card holds and the Stripe processor (live mode only). */
function moneySettings(env: ConfigEnv) {
  const stripeApiBase = stripeApiOrigin(env.STRIPE_API_BASE);
  const stripe =
    env.PEERPAY_MODE === 'live' && env.STRIPE_SECRET_KEY !== undefined && env.STRIPE_WEBHOOK_SECRET !== undefined
      ? Object.freeze({
          secretKey: env.STRIPE_SECRET_KEY,
          webhookSecret: env.STRIPE_WEBHOOK_SECRET,
          apiBase: stripeApiBase,
          requestTimeoutMs: env.STRIPE_TIMEOUT_MS,
        })
      : undefined;
  return {
    maxFiatTransferMajor: BigInt(env.MAX_FIAT_TRANSFER_MAJOR),
    maxStablecoinOperationMajor: BigInt(env.MAX_STABLECOIN_OPERATION_MAJOR),
    limits: limitSettings(env.LIMITS_FILE),
    fiatHoldMs: fiatHoldMs(env.FIAT_HOLD_HOURS, env.PEERPAY_MODE),
    stripe,
  } satisfies Partial<Config>;
}

/** The chain, its tokens, the wallet seed, x402 and how often the jobs look for work. */
function chainSettings(env: ConfigEnv, masterSeedHex: string | undefined) {
  return {
    masterSeedHex,
    chainRpcUrl: env.CHAIN_RPC_URL,
    chainId: env.CHAIN_ID,
    tokenAddresses: Object.freeze({ USDC: address(env.USDC_ADDRESS), EURC: address(env.EURC_ADDRESS) }),
    chainConfirmations: env.CHAIN_CONFIRMATIONS,
    chainScanBlocks: env.CHAIN_SCAN_BLOCKS,
    chainPollIntervalMs: env.CHAIN_POLL_INTERVAL_MS,
    jobIntervalMs: env.JOB_INTERVAL_MS,
    x402PayTo: address(env.PAY_TO),
    x402FacilitatorUrl: env.X402_FACILITATOR_URL,
  } satisfies Partial<Config>;
}

/** Only the tokens given: an empty record means no ceiling (or floor) at all. */
function perToken(amounts: Record<'USDC' | 'EURC', string | undefined>): Readonly<Partial<Record<'USDC' | 'EURC', bigint>>> {
  const minor: Partial<Record<'USDC' | 'EURC', bigint>> = {};
  for (const token of ['USDC', 'EURC'] as const) {
    const amount = tokenAmountMinor(amounts[token]);
    if (amount !== undefined) minor[token] = amount;
  }
  return Object.freeze(minor);
}

/** The hot wallet's liquidity, gas and ceiling (decision 0019), and the operator API's bootstrap token. */
function treasurySettings(env: ConfigEnv): TreasuryConfig {
  const maxMinor = perToken({ USDC: env.HOT_WALLET_MAX_USDC, EURC: env.HOT_WALLET_MAX_EURC });
  const minMinor = perToken({ USDC: env.HOT_WALLET_MIN_USDC, EURC: env.HOT_WALLET_MIN_EURC });
  checkHotWalletBounds(env, minMinor, maxMinor);
  return Object.freeze({
    minGasWei: BigInt(env.HOT_WALLET_MIN_GAS_WEI),
    maxFeePerGasWei: BigInt(env.CHAIN_MAX_FEE_PER_GAS_WEI),
    replaceAfterMs: env.CHAIN_REPLACE_AFTER_MS,
    withdrawalWaitAlertMs: env.WITHDRAWAL_WAIT_ALERT_MS,
    maxMinor,
    minMinor,
    coldAddress: address(env.COLD_WALLET_ADDRESS),
    operatorToken: env.OPERATOR_TOKEN,
  });
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
