// The configuration peerpay runs with, as loadConfig returns it: one frozen object, read once at
// start. Its variables, their defaults and bounds are declared in schema.ts.
import type { LimitSettings } from './limit-settings.js';

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
  /** DATABASE_PREPARED_STATEMENTS: hot statements named on PostgreSQL connections (decision 0051). */
  readonly preparedStatements: boolean;
  readonly logLevel: string;
  /** `json`: JSON lines; `pretty`: a banner and readable lines; `auto` (default): pretty when stdout is a terminal. */
  readonly logFormat: LogFormat;
  /** CONSOLE: whether /console is served (it also waits for a first operator). */
  readonly console: boolean;
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
  /** WALLET_PROVIDER: `self` (keys from the master seed) or `circle` (Circle developer-controlled wallets, DESIGN §19). */
  readonly walletProvider: 'self' | 'circle';
  /** WALLET_PROVIDER=circle only: Circle's settings; undefined with `self`. */
  readonly circle: Readonly<CircleConfig> | undefined;
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

/** Circle developer-controlled wallets (DESIGN §19). toJSON leaves the secrets out of anything that serialises it. */
export interface CircleConfig {
  apiKey: string;
  /** 32 bytes of hex: CIRCLE_ENTITY_SECRET, or the content of CIRCLE_ENTITY_SECRET_FILE. */
  entitySecret: string;
  apiBase: string;
  /** CIRCLE_WALLET_SET_ID; undefined means the one made at the first start and recorded in the database. */
  walletSetId: string | undefined;
  blockchain: 'MATIC' | 'MATIC-AMOY';
  accountType: 'SCA' | 'EOA';
  /** FACILITATOR_KEY_FILE's 32-byte hex key, the x402 relay's (gas only); undefined means derived from the master seed. */
  facilitatorKeyHex: string | undefined;
  toJSON(): Record<string, unknown>;
}
