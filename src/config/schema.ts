// Every environment variable peerpay reads, declared once: its kind, default, bounds and meaning.
// read-env.ts validates the environment against it (env-schema, Ajv); the README's configuration
// table is generated from it (npm run docs:config). What a schema cannot say (one variable
// against another, files read from disk, TRUST_PROXY's list) is checked after it, in rules.ts
// and the files beside it. The order here is the README's.
import { Type, type Static } from 'typebox';
import { LOG_FORMATS } from './types.js';
import { address, oneOf, shaped, text, tokenAmount, url, wei, wholeNumber, type VariableSchema } from './kinds.js';

const HTTP = ['http:', 'https:'];
const MAX_MAJOR = { pattern: '^[1-9]\\d{0,15}$', refusal: 'must be a positive whole number', quoted: true, default: '1000000' } as const;
/** 32 bytes of hex, optional 0x: MASTER_SEED, and the content of MASTER_SEED_FILE (master-seed.ts). */
export const SEED_HEX = '^(0x)?[0-9a-fA-F]{64}$';
const PRINTABLE_ASCII = '[\\x21-\\x7e]';
/** About 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (DESIGN §13): eight attempts over about 28 hours. */
const WEBHOOK_RETRY_SCHEDULE_MS = '5000,300000,1800000,7200000,18000000,36000000,36000000';

// Secrets (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, MASTER_SEED, OPERATOR_TOKEN, CIRCLE_API_KEY,
// CIRCLE_ENTITY_SECRET) are checked by shape only and are not `quoted`: a configuration error is
// printed to the terminal and the deployment's logs. Nor are URLs, which may carry a password.
export const configSchema = Type.Object(
  {
    PEERPAY_MODE: oneOf(['sandbox', 'live'], {
      default: 'sandbox',
      // PEERPAY_MODE= (empty) is a mistake to stop at, not a way to ask for sandbox mode.
      keepEmpty: true,
      description: '`sandbox` or `live` (see [Going live](#going-live) for what live mode requires)',
    }),
    PORT: wholeNumber({
      default: 3000,
      minimum: 0,
      maximum: 65535,
      description:
        'the port the service listens on (`0`: a free port, which the banner and the `peerpay is listening` line name); a port in use stops the start with one line, before anything is written',
    }),
    HOST: text({ default: '127.0.0.1', description: 'the address the service (and `METRICS_PORT`) listens on' }),
    METRICS_PORT: Type.Optional(
      wholeNumber({
        minimum: 1,
        maximum: 65535,
        description: 'serve `GET /metrics` on this port (same `HOST`) only; the main port then answers 404 there',
      }),
    ),
    PUBLIC_URL: Type.Optional(
      url(HTTP, {
        // Links are PUBLIC_URL + a path; a query or fragment would end up in the middle of them.
        pattern: '^[^?#]*$',
        refusal: 'must not have a query or fragment',
        whenUnset: '`http://HOST:PORT`',
        description: 'base of the links peerpay hands out',
      }),
    ),
    DATA_DIR: text({
      default: './data',
      description:
        'PGlite files, the embedded chain and the generated master seed; created 0700, every file in it 0600 (peerpay runs with umask 0077; a looser DATA_DIR is tightened at start, with a warning)',
    }),
    DATABASE_URL: Type.Optional(
      url(['postgres:', 'postgresql:'], { description: 'PostgreSQL connection string; unset means PGlite in `DATA_DIR`' }),
    ),
    DATABASE_PREPARED_STATEMENTS: oneOf(['on', 'off'], {
      default: 'on',
      description:
        'with `DATABASE_URL`: the statements a connection sends again and again go as named prepared statements, at most 64 per connection (decision 0051); `off` sends every statement unnamed, for a connection pooler in transaction mode that does not track prepared statements',
    }),
    MASTER_SEED: Type.Optional(
      shaped({
        pattern: SEED_HEX,
        refusal: 'must be 32 bytes of hex (64 hex digits)',
        whenUnset: 'generated',
        description: '32-byte hex seed of the HD wallet provider',
      }),
    ),
    MASTER_SEED_FILE: Type.Optional(
      text({ description: 'a file holding that seed instead (not both); in live mode one of the two is required' }),
    ),
    WALLET_PROVIDER: oneOf(['self', 'circle'], {
      default: 'self',
      description:
        "who holds the stablecoin wallets: `self` (keys derived from the master seed) or `circle` (Circle developer-controlled wallets hold every user's key and the treasury's; see [Going live](#going-live))",
    }),
    CIRCLE_API_KEY: Type.Optional(
      shaped({
        pattern: `^${PRINTABLE_ASCII}{8,512}$`,
        refusal: 'must be a Circle API key: 8 to 512 printable characters without spaces',
        description: '`WALLET_PROVIDER=circle`: the Circle API key (e.g. `TEST_API_KEY:…`)',
      }),
    ),
    CIRCLE_ENTITY_SECRET: Type.Optional(
      shaped({
        pattern: SEED_HEX,
        refusal: 'must be 32 bytes of hex (64 hex digits)',
        description: '`WALLET_PROVIDER=circle`: the entity secret registered with Circle (the SDK encrypts it for every call)',
      }),
    ),
    CIRCLE_ENTITY_SECRET_FILE: Type.Optional(text({ description: 'a file holding that entity secret instead (not both)' })),
    CIRCLE_API_BASE: url(HTTP, {
      default: 'https://api.circle.com',
      description: "where Circle's API is (a stand-in in tests): scheme, host and port, no path",
    }),
    CIRCLE_WALLET_SET_ID: Type.Optional(
      shaped({
        pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
        refusal: 'must be a Circle wallet set id (a UUID)',
        quoted: true,
        whenUnset: 'made at the first start, then recorded in the database',
        description: "the Circle wallet set that holds peerpay's wallets",
      }),
    ),
    CIRCLE_BLOCKCHAIN: oneOf(['MATIC', 'MATIC-AMOY'], {
      default: 'MATIC',
      description: "the chain of the Circle wallets: `MATIC` (Polygon), or `MATIC-AMOY` (Polygon's testnet)",
    }),
    CIRCLE_ACCOUNT_TYPE: oneOf(['SCA', 'EOA'], {
      default: 'SCA',
      description:
        "`SCA` (smart contract accounts, whose gas Circle's Gas Station pays) or `EOA` (plain accounts that pay their own gas: the treasury wallet tops a user's wallet up before its sweep, and its own gas is the operator's to fund; decision 0046)",
    }),
    FACILITATOR_KEY_FILE: Type.Optional(
      text({
        whenUnset: 'derived from the master seed',
        description:
          '`WALLET_PROVIDER=circle`: a file holding the 32-byte hex private key that relays x402 payments (it pays gas only and never holds user money; decision 0046)',
      }),
    ),
    STRIPE_SECRET_KEY: Type.Optional(
      shaped({
        pattern: '^(sk|rk)_(live|test)_[A-Za-z0-9]+$',
        refusal: 'must be a Stripe secret or restricted key: sk_live_, sk_test_, rk_live_ or rk_test_ followed by letters and digits',
        description: 'live mode: the Stripe secret (or restricted) key',
      }),
    ),
    STRIPE_WEBHOOK_SECRET: Type.Optional(
      shaped({
        pattern: '^whsec_[A-Za-z0-9+/=]+$',
        refusal: 'must be a Stripe webhook signing secret: whsec_ followed by base64',
        description: "live mode: the Stripe webhook endpoint's signing secret",
      }),
    ),
    STRIPE_API_BASE: url(HTTP, {
      default: 'https://api.stripe.com',
      description: 'where the Stripe API is (a stand-in in tests): scheme, host and port, no path',
    }),
    STRIPE_TIMEOUT_MS: wholeNumber({
      default: 15_000,
      minimum: 100,
      maximum: 120_000,
      description: 'how long one Stripe call may take before it counts as unanswered (retried twice with the same Idempotency-Key)',
    }),
    REDIS_URL: Type.Optional(
      url(['redis:', 'rediss:'], {
        description:
          "`redis://` or `rediss://` URL of the Redis that a fleet's processes count rate limits in (see [Running a fleet](#running-a-fleet)); unset means each process counts in its own memory",
      }),
    ),
    REDIS_KEY_PREFIX: Type.Optional(
      shaped({
        pattern: `^${PRINTABLE_ASCII}{1,100}$`,
        refusal: 'must be 1 to 100 printable ASCII characters without spaces',
        whenUnset: "`peerpay:` + the database's name + `:`",
        description: "the start of every Redis key, so that deployments or test runs sharing a Redis never see each other's counts",
      }),
    ),
    DRAIN_DELAY_MS: wholeNumber({
      default: 0,
      minimum: 0,
      maximum: 300_000,
      description:
        "on SIGTERM, how long the process keeps answering while `/health/ready` says `draining`, before it stops accepting connections: at least the balancer's time to notice (5000 with `deploy/haproxy.cfg`)",
    }),
    SHUTDOWN_TIMEOUT_MS: wholeNumber({
      default: 15_000,
      minimum: 1000,
      maximum: 600_000,
      description:
        "on SIGTERM, after that delay, the most the requests under way and the jobs' rounds may take before the process exits anyway (code 1)",
    }),
    GROUP_COMMIT_MAX_BATCH: wholeNumber({
      default: 64,
      minimum: 1,
      // Two events per transfer: 128 transfers stay within one events statement's bound (512).
      maximum: 128,
      description:
        'internal transfers (`POST /agent/transfer`, `POST /stablecoin/transfer`) arriving together share one database transaction and its commit: a batch closes at this many (1 to 128)...',
    }),
    GROUP_COMMIT_MAX_WAIT_MS: wholeNumber({
      default: 2,
      minimum: 0,
      maximum: 100,
      description:
        '...or when its first transfer has waited this long; `peerpay_group_commit_batch_size` on `/metrics` shows the sizes reached',
    }),
    GROUP_COMMIT_CONCURRENCY: wholeNumber({
      default: 4,
      minimum: 1,
      maximum: 32,
      description:
        "batches written at once on PostgreSQL, each on a connection of its own (PGlite always writes one; the sandbox's card transfers always one, as each of their batches locks the currency's processor clearing account)",
    }),
    TRUST_PROXY: text({
      default: 'false',
      description:
        "behind a load balancer: `true`, or a comma-separated list of the proxies' addresses or CIDRs, so that client IPs (rate limits) come from `X-Forwarded-For`",
    }),
    LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'info', description: 'pino level' }),
    LOG_FORMAT: oneOf(LOG_FORMATS, {
      default: 'auto',
      description:
        '`auto`: a start-up banner and readable log lines when stdout is a terminal, JSON lines otherwise; `json`: always JSON lines; `pretty`: always the banner and readable lines',
    }),
    BODY_LIMIT_BYTES: wholeNumber({ default: 64 * 1024, minimum: 1024, maximum: 10 * 1024 * 1024, description: 'largest request body' }),
    PASSWORD_HASH_COST_LOG2: wholeNumber({ default: 17, minimum: 10, maximum: 20, description: "scrypt cost (N = 2^17, OWASP's floor)" }),
    PASSWORD_HASH_CONCURRENCY: wholeNumber({
      default: 2,
      minimum: 1,
      maximum: 64,
      description: 'password hashes running at once (128 MiB each)',
    }),
    PASSWORD_HASH_QUEUE_MAX: wholeNumber({
      default: 16,
      minimum: 0,
      maximum: 10_000,
      description: 'password hashes that may wait for a slot; beyond it a request that needs one is answered 503 `busy` with `Retry-After`',
    }),
    RATE_LIMIT_REGISTER_PER_MINUTE: wholeNumber({
      default: 120,
      minimum: 1,
      maximum: 1_000_000,
      description: 'registrations per client IP',
    }),
    RATE_LIMIT_CHECK_PER_MINUTE: wholeNumber({
      default: 300,
      minimum: 1,
      maximum: 1_000_000,
      description: 'account checks and lookups per client IP',
    }),
    RATE_LIMIT_DEFAULT_PER_MINUTE: wholeNumber({
      default: 1200,
      minimum: 1,
      maximum: 1_000_000,
      description: 'other requests per account, whichever of its keys is used (or per IP when public)',
    }),
    LOGIN_MAX_FAILURES: wholeNumber({
      default: 10,
      minimum: 1,
      maximum: 1000,
      description:
        'sign-in attempts per account whose password is checked before a lock-out (each is counted before its hash is checked, so parallel guesses count; a right password clears the count)',
    }),
    LOGIN_LOCKOUT_WINDOW_MS: wholeNumber({
      default: 15 * 60 * 1000,
      minimum: 1000,
      maximum: 24 * 3600 * 1000,
      description: 'the window in which `LOGIN_MAX_FAILURES` failed sign-ins lock an account out',
    }),
    MAX_FIAT_TRANSFER_MAJOR: shaped({ ...MAX_MAJOR, description: 'per-operation maximum of fiat transfers, in major units' }),
    MAX_STABLECOIN_OPERATION_MAJOR: shaped({
      ...MAX_MAJOR,
      description: 'per-operation maximum of stablecoin transfers, withdrawals and funding links, in major units',
    }),
    LIMITS_FILE: Type.Optional(
      text({
        description:
          'a JSON file of per-account limits on outgoing volume per currency or token over 24 hours and 30 days (see [Limits](#limits)); unset means the defaults (10,000 a day and 50,000 a month; JPY 1,500,000 and 7,500,000; a tenth for accounts younger than 7 days). Read at start; a file that is not valid stops the start with one line',
      }),
    ),
    FIAT_HOLD_HOURS: Type.Optional(
      shaped({
        // Whitespace around the number is allowed; at most 8760 (a year) is checked in values.ts.
        pattern: '^\\s*\\d{1,4}(\\.\\d{1,6})?\\s*$',
        refusal: 'must be a number of hours from 0 to 8760 (decimals allowed)',
        quoted: true,
        whenUnset: '`72` in live mode, `0` in sandbox',
        description:
          'how long money received by card stays `held` before it is available to pay out (decimal hours, e.g. `0.005` = 18 s); bank-debit money is never held',
      }),
    ),
    CHAIN_RPC_URL: Type.Optional(
      url(HTTP, {
        description:
          'JSON-RPC of a Polygon node; unset in sandbox mode means the embedded anvil chain (state in `DATA_DIR/chain`; npm installs anvil for Linux x64 and arm64, macOS x64 and arm64 and Windows x64; elsewhere the start stops with one line asking for `CHAIN_RPC_URL`, before anything is written)',
      }),
    ),
    CHAIN_ID: wholeNumber({ default: 137, minimum: 1, maximum: 2 ** 31, description: 'chain id of that node' }),
    USDC_ADDRESS: Type.Optional(
      address({ whenUnset: 'sandbox token', description: 'the USDC token contract; required with `CHAIN_RPC_URL`' }),
    ),
    EURC_ADDRESS: Type.Optional(
      address({ whenUnset: 'sandbox token', description: 'the EURC token contract; required with `CHAIN_RPC_URL`' }),
    ),
    CHAIN_CONFIRMATIONS: wholeNumber({
      default: 1,
      minimum: 1,
      maximum: 1000,
      description: 'blocks (its own included) before a deposit or withdrawal counts',
    }),
    CHAIN_SCAN_BLOCKS: wholeNumber({
      default: 500,
      minimum: 1,
      maximum: 10_000,
      description: 'blocks the deposit watcher reads per request',
    }),
    CHAIN_POLL_INTERVAL_MS: wholeNumber({
      default: 1000,
      minimum: 50,
      maximum: 3_600_000,
      description: 'how often the chain jobs (deposit watcher, sweeps, outbox, withdrawals, x402) run',
    }),
    PAY_TO: Type.Optional(address({ whenUnset: 'hot wallet', description: 'address that receives x402 payments' })),
    X402_FACILITATOR_URL: Type.Optional(
      url(HTTP, { description: 'external x402 facilitator for `/verify` and `/settle`; unset means the built-in one' }),
    ),
    JOB_INTERVAL_MS: wholeNumber({
      default: 5000,
      minimum: 50,
      maximum: 3_600_000,
      description: 'how often the other background jobs look for due work',
    }),
    HOT_WALLET_MIN_GAS_WEI: wei({
      default: '1000000000000000000',
      description: 'below it (the default is 1 POL): a warning, `peerpay_hot_wallet_gas_low 1` and `/health/ready` failing its `gas` check',
    }),
    CHAIN_MAX_FEE_PER_GAS_WEI: wei({
      default: '2000000000000',
      description: 'no hot wallet transaction, replacements included, offers more per gas (the default is 2,000 gwei)',
    }),
    CHAIN_REPLACE_AFTER_MS: wholeNumber({
      default: 180_000,
      minimum: 100,
      maximum: 86_400_000,
      description: 'a hot wallet transaction not mined this long after it was sent is replaced (same nonce, higher fee)',
    }),
    WITHDRAWAL_WAIT_ALERT_MS: wholeNumber({
      default: 15 * 60_000,
      minimum: 1,
      maximum: 7 * 86_400_000,
      description: 'a withdrawal waiting this long for the hot wallet is reported (error log, `peerpay_withdrawals_waiting_overdue`)',
    }),
    HOT_WALLET_MAX_USDC: Type.Optional(
      tokenAmount({
        description: 'USDC ceiling in major units (e.g. `5000`); the excess goes to `COLD_WALLET_ADDRESS`, which a ceiling requires',
      }),
    ),
    HOT_WALLET_MAX_EURC: Type.Optional(
      tokenAmount({ description: 'EURC ceiling in major units; the excess goes to `COLD_WALLET_ADDRESS`, which a ceiling requires' }),
    ),
    HOT_WALLET_MIN_USDC: Type.Optional(
      tokenAmount({
        description:
          'USDC floor in major units: below it (what is not already on its way out) a warning to top up and `peerpay_treasury_below_floor 1`',
      }),
    ),
    HOT_WALLET_MIN_EURC: Type.Optional(
      tokenAmount({
        description:
          'EURC floor in major units: below it (what is not already on its way out) a warning to top up and `peerpay_treasury_below_floor 1`',
      }),
    ),
    COLD_WALLET_ADDRESS: Type.Optional(
      address({ description: "the operator's cold address (only its address: its keys are never in peerpay)" }),
    ),
    OPERATOR_TOKEN: Type.Optional(
      shaped({
        pattern: `^${PRINTABLE_ASCII}{32,256}$`,
        refusal: 'must be 32 to 256 printable ASCII characters without spaces',
        description:
          "32 to 256 printable characters: the bootstrap admin of the operator API (audited as `env`), enough to make the first operators ([Operating peerpay](#operating-peerpay)); unset, only operators' own `po_` tokens open `/admin/*`",
      }),
    ),
    CONSOLE: oneOf(['on', 'off'], {
      default: 'on',
      description:
        'the operator console at `/console` (on once at least one operator exists; see [Operating peerpay](#operating-peerpay)); `off` serves nothing there',
    }),
    SANCTIONS_LIST_FILE: Type.Optional(
      text({
        description:
          "the operator's sanctions list: one 0x address per line, `#` comments, any case; reloaded within 5 s of a change (see [Sanctions screening](#sanctions-screening)); a missing or malformed file refuses the start",
      }),
    ),
    SANCTIONS_ORACLE_ADDRESS: Type.Optional(
      address({
        whenUnset: 'the sandbox stand-in on the embedded chain; unset elsewhere',
        description:
          "an on-chain oracle answering `isSanctioned(address)`, e.g. Chainalysis's on Polygon, `0x40C57923924B5c5c5455c48D93317139ADDaC8fb`",
      }),
    ),
    SANCTIONS_ORACLE_TIMEOUT_MS: wholeNumber({
      default: 3000,
      minimum: 100,
      maximum: 30_000,
      description: 'how long one oracle call may take; beyond it screening is unavailable (503 `screening_unavailable`)',
    }),
    WEBHOOK_RETRY_SCHEDULE_MS: shaped({
      default: WEBHOOK_RETRY_SCHEDULE_MS,
      pattern: '^\\s*\\d{1,9}\\s*(,\\s*\\d{1,9}\\s*){0,19}$',
      refusal: 'must be up to 20 comma-separated whole numbers of milliseconds',
      quoted: true,
      description:
        'the waits before each retry of a webhook delivery (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h: eight attempts over about 28 hours; see [Events and webhooks](#events-and-webhooks))',
    }),
    WEBHOOK_TIMEOUT_MS: wholeNumber({
      default: 10_000,
      minimum: 100,
      maximum: 60_000,
      description: 'how long an endpoint has to answer a delivery, body included',
    }),
    WEBHOOK_MAX_ENDPOINTS: wholeNumber({ default: 10, minimum: 1, maximum: 100, description: 'webhook endpoints per account' }),
    WEBHOOK_MAX_SOCKETS: wholeNumber({
      default: 16,
      minimum: 1,
      maximum: 1024,
      description: 'delivery connections one process holds open at once',
    }),
    WEBHOOK_MAX_SOCKETS_PER_ENDPOINT: wholeNumber({
      default: 2,
      minimum: 1,
      maximum: 64,
      description: 'of those, to one endpoint (also the bound for the whole fleet, by the delivery leases)',
    }),
  },
  { additionalProperties: false },
);

/** The environment once validated: every variable in its type, defaults filled in. */
export type ConfigEnv = Static<typeof configSchema>;
export type ConfigVariable = keyof ConfigEnv;

/** Every variable's name, in the README's order. */
export const CONFIG_VARIABLES = Object.keys(configSchema.properties) as readonly ConfigVariable[];

/** A variable's schema, as the plain JSON Schema fields peerpay reads back (kinds.ts writes them). */
export function variableSchema(name: ConfigVariable): VariableSchema {
  return configSchema.properties[name] as unknown as VariableSchema;
}
