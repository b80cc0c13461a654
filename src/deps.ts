// The composition root: builds every dependency from the configuration, by hand, in one place.
import path from 'node:path';
import type { Config } from './config.js';
import { openDatabase, type Database, type Db } from './db/database.js';
import { createPasswordHasher, type PasswordHasher } from './accounts/password-hasher.js';
import { createAccountLookups, type AccountLookups } from './accounts/account-lookups.js';
import { createIdempotencyStore, type IdempotencyStore } from './platform/idempotency-store.js';
import { createHdWalletProvider } from './adapters/wallet/hd-wallet-provider.js';
import { loadMasterSeed } from './adapters/wallet/master-seed.js';
import type { CircleWalletProvider, WalletProvider } from './adapters/wallet/wallet-provider.js';
import { SandboxClock, systemClock, type Clock } from './platform/clock.js';
import type { PaymentProcessor } from './adapters/processor/payment-processor.js';
import { SandboxProcessor } from './adapters/processor/sandbox-processor.js';
import { connectChain, grantSandboxGas, type ChainConnection } from './adapters/chain/connect-chain.js';
import type { CircleApi } from './adapters/circle/circle-port.js';
import { openCircleWallets } from './stablecoin/custody/circle-wallets.js';
import type { StripeWebhookReader } from './adapters/processor/stripe/stripe-webhooks.js';
import { checkInstallationIdentity, checkSeedIdentity } from './startup/installation-identity.js';
import { registerCustodyMetrics } from './books/custody-metrics.js';
import { createMetrics, type Metrics } from './platform/metrics.js';
import { registerBacklogMetrics } from './jobs/backlog-metrics.js';
import { createLifecycle, type Lifecycle } from './platform/lifecycle.js';
import { registerTreasuryMetrics } from './stablecoin/treasury/treasury-metrics.js';
import { connectRedis, type SharedRedis } from './platform/redis.js';
import { createWebhookSecrets, type WebhookSecrets } from './events/webhook-secrets.js';
import { createSocketSlots, type SocketSlots } from './events/webhook-socket-slots.js';
import { createDestinationGuard, type DestinationGuard } from './events/destination-guard.js';
import { createAccountFreezes, type AccountFreezes } from './compliance/freezes/freezes-service.js';
import { createAccountDirectory, type AccountDirectory } from './admin/accounts/account-detail-service.js';
import { createGroupCommit, MAX_QUEUED_MEMBERS } from './ledger/group-commit.js';
import { createTransferBatchWriter, type TransferBatches } from './stablecoin/stablecoin-transfer-batch.js';
import { createAccountLimits, type AccountLimits } from './compliance/limits/limits-service.js';
import { createSanctionsOracle } from './adapters/chain/sanctions-oracle.js';
import { SANDBOX_SANCTIONS_ORACLE } from './adapters/chain/sandbox-sanctions-oracle.js';
import { createSanctionsScreening, type SanctionsScreening } from './compliance/sanctions/sanctions-screening.js';
import { createSanctionsControls, type SanctionsControls } from './compliance/sanctions/sanctions-controls.js';
import { createSandboxSanctions, type SandboxSanctions } from './compliance/sanctions/sandbox-sanctions.js';
import { createOperators, type Operators } from './compliance/operators/operators-service.js';
import { createAuditLogReader, type AuditLogReader } from './compliance/audit/audit-repository.js';
import { createHotWalletOutbox, type HotWalletOutbox } from './stablecoin/outbox/outbox-service.js';
import { createTreasury, type Treasury } from './stablecoin/treasury/treasury-service.js';
import { createCustodyChecks, type CustodyChecks } from './books/custody-checks.js';
import { createDepositWatching, type DepositWatching } from './stablecoin/deposits/deposit-watching.js';
import { createDepositSweeps, type DepositSweeps } from './stablecoin/sweeps/deposit-sweeps.js';
import { createDepositReleases, type DepositReleases } from './stablecoin/deposits/deposit-release-service.js';
import {
  createCircleDepositServices,
  type CircleDepositInputs,
  type CircleDepositServices,
} from './stablecoin/deposits/circle-deposit-services.js';
import { createStablecoinWithdrawals, type StablecoinWithdrawals } from './stablecoin/stablecoin-withdrawals.js';
import { createStablecoinTransfers, type StablecoinTransfers } from './stablecoin/stablecoin-transfers.js';
import { createStablecoinFunding, type StablecoinFunding } from './stablecoin/funding/stablecoin-funding.js';
import { createNanoPayments, type NanoPayments } from './nano/nano-payments.js';
import { createHealth, type Health } from './health/health-service.js';
import { databaseConfirmationStore } from './mcp/confirmation-service.js';
import type { ConfirmationStore } from '@peerpay/mcp';
import { allJobs } from './jobs/all-jobs.js';
import type { Job } from './jobs/job.js';
import { createAccounts, type Accounts } from './accounts/accounts.js';
import { createEvents, type Events } from './events/events.js';
import { createWebhookDelivery, type WebhookDelivery } from './events/webhook-delivery.js';
import { createFiatTransfers, type FiatTransfers } from './fiat/fiat-transfers.js';
import { writeCardCredits, type CardCredits } from './fiat/card-credit-batch.js';
import { prepareCardCredits } from './fiat/card-credit-locks.js';
import { createIntentBatchWriter } from './fiat/transfer-intent-batch.js';
import { createCardSendWriter, prepareCardSends, type CardSends } from './fiat/card-send-batch.js';
import { createFiatHistory, type FiatHistory } from './fiat/fiat-history.js';
import { createPayouts, type Payouts } from './fiat/payouts.js';
import { createSetupLinks, type SetupLinks } from './fiat/setup-links.js';
import { createProcessorEvents, type ProcessorEvents } from './fiat/processor-events.js';
import { createOperatorRefunds, type OperatorRefunds } from './fiat/card-risk/operator-refunds.js';
import { createPayoutReversals, type PayoutReversals } from './fiat/card-risk/payout-reversals.js';
import { createDebtWriteOffs, type DebtWriteOffs } from './fiat/card-risk/debt-write-offs.js';
import { createCardRiskReports } from './fiat/card-risk/card-risk-reports.js';
import { createHoldRelease, type HoldRelease } from './fiat/card-risk/hold-release.js';
import { createRefundReconciliation, type RefundReconciliation } from './fiat/card-risk/refund-reconciliation.js';
import { createSandboxCardRiskLookups, type SandboxCardRiskLookups } from './fiat/card-risk/sandbox-card-risk-lookups.js';
import { createConsoleAccess } from './console/console-access.js';
import type { ConsoleAccess } from './console/console-access-routes.js';
import { createOverview, type Overview } from './operations/overview/overview-service.js';
import { createSnapshots, type Snapshots } from './operations/snapshots/snapshots-service.js';
import { createReconciliation, type Reconciliation } from './operations/reconciliation/reconciliation-service.js';

export interface Deps {
  readonly config: Config;
  readonly database: Database;
  readonly db: Db;
  readonly clock: Clock;
  /** Present in sandbox mode only: the clock that test helpers may move. */
  readonly sandboxClock: SandboxClock | null;
  readonly passwords: PasswordHasher;
  /** Idempotency-Key claims and answers (DESIGN §5), coalesced per turn. */
  readonly idempotency: IdempotencyStore;
  /** Account and key look-ups, coalesced: the auth hook's and every transfer's recipient's. */
  readonly accountLookups: AccountLookups;
  readonly wallets: WalletProvider;
  readonly processor: PaymentProcessor;
  /** Present in sandbox mode only: the processor whose hosted pages peerpay serves itself. */
  readonly sandboxProcessor: SandboxProcessor | null;
  /** Present in live mode only: Stripe's webhooks, verified and read into peerpay's terms. */
  readonly stripeWebhooks: StripeWebhookReader | null;
  /** The chain (embedded anvil in sandbox mode), its token addresses and, when embedded, mint and gas. */
  readonly chain: ChainConnection;
  /** Prometheus: the registry /metrics serves (on METRICS_PORT when set), job and backlog metrics. */
  readonly metrics: Metrics;
  /** Draining: GET /health/ready answers 503 once the process drains. */
  readonly lifecycle: Lifecycle;
  /** REDIS_URL: where the rate limits of a fleet are counted; null means this process's memory. */
  readonly redis: SharedRedis | null;
  /** Webhook signing secrets, derived from the master seed (decision 0017). */
  readonly webhookSecrets: WebhookSecrets;
  /** Webhook delivery sockets this process holds open, in all and per endpoint (WEBHOOK_MAX_SOCKETS…). */
  readonly webhookSockets: SocketSlots;
  /** Live mode: where webhooks may go, checked at creation and in every delivery's connection. */
  readonly webhookDestinations: DestinationGuard;
  /** Per-account limits on outgoing volume (DESIGN §17): checked and counted by every outgoing movement. */
  readonly limits: AccountLimits;
  /** Internal stablecoin transfers, written in shared transactions (ledger/group-commit.ts). */
  readonly transferBatches: TransferBatches;
  /** The operator's freeze and unfreeze (DESIGN §17). */
  readonly accountFreezes: AccountFreezes;
  /** The operator's account search and detail (DESIGN §17). */
  readonly accountDirectory: AccountDirectory;
  /** Sanctions screening of withdrawal destinations and deposit senders (DESIGN §17). */
  readonly sanctions: SanctionsScreening;
  /** What a listed address leads to: the refusal and the account's freeze. */
  readonly sanctionsControls: SanctionsControls;
  /** Sandbox mode on the embedded chain: the stand-in oracle's list, which the test helper changes; otherwise null. */
  readonly sandboxSanctions: SandboxSanctions | null;
  /** Operator identities (DESIGN §17): who may use /admin/*, with OPERATOR_TOKEN as the bootstrap admin `env`. */
  readonly operators: Operators;
  /** The audit log, read (GET /admin/audit); it is written by recordAudit in each change's transaction. */
  readonly auditLog: AuditLogReader;
  /** Internal stablecoin transfers, their quotes, balances and history. */
  readonly stablecoinTransfers: StablecoinTransfers;
  /** Withdrawals to external addresses, their quotes and the default address. */
  readonly stablecoinWithdrawals: StablecoinWithdrawals;
  /** Deposit addresses, funding links and the sandbox faucet. */
  readonly stablecoinFunding: StablecoinFunding;
  /** The hot wallet's recorded transactions, carried to their end (with the leases this process owes). */
  readonly hotWalletOutbox: HotWalletOutbox;
  /** The hot wallet's treasury: the operator's view, its warnings and the cold transfers. */
  readonly treasury: Treasury;
  /** Books against custody (DESIGN §15). */
  readonly custodyChecks: CustodyChecks;
  readonly depositWatching: DepositWatching;
  readonly depositSweeps: DepositSweeps;
  /** The operator's release of deposits held back by screening (DESIGN §17). */
  readonly depositReleases: DepositReleases;
  /** WALLET_PROVIDER=circle: deposits from Circle's notifications and its transaction list; null fields otherwise. */
  readonly circle: CircleDepositServices;
  /** The pay-per-call micro-endpoints and their settlements (DESIGN §12). */
  readonly nanoPayments: NanoPayments;
  /** GET /health and GET /health/ready. */
  readonly health: Health;
  /** The MCP server's confirmations of money-moving tools. */
  readonly mcpConfirmations: ConfirmationStore;
  /** Every background job, in the order a round runs them (jobs/all-jobs.ts). */
  readonly jobs: readonly Job[];
  /** Registration, keys, passwords and profiles (DESIGN §6). */
  readonly accounts: Accounts;
  /** The caller's events and webhook endpoints (DESIGN §13). */
  readonly events: Events;
  /** The webhook delivery queue's rounds. */
  readonly webhookDelivery: WebhookDelivery;
  /** Fiat transfers: sending, quotes, balances, settlement and recovery rounds. */
  readonly fiatTransfers: FiatTransfers;
  readonly fiatHistory: FiatHistory;
  readonly payouts: Payouts;
  /** Setup links, their pages and reconciliation, and what an account has linked. */
  readonly setupLinks: SetupLinks;
  /** The processor's webhooks (and the sandbox's made-up card-risk events), applied. */
  readonly processorEvents: ProcessorEvents;
  /** The operator's card-risk actions and reports (DESIGN §16): the operator API and the console share them. */
  readonly cardRisk: CardRiskServices;
  readonly holdRelease: HoldRelease;
  readonly refundReconciliation: RefundReconciliation;
  /** What the sandbox's card-risk test helpers read. */
  readonly sandboxCardRiskLookups: SandboxCardRiskLookups;
  /** The operator console's sign-in, enrolment and sessions (DESIGN §18). */
  readonly consoleAccess: ConsoleAccess;
  /** The console's chart data (DESIGN §18), taken every 5 minutes by the snapshot job. */
  readonly snapshots: Snapshots;
  /** The Overview page's figures: treasury, readiness, backlogs. */
  readonly overview: Overview;
  /** The processor's balance against the ledger's clearing, and custody against the books (DESIGN §18). */
  readonly reconciliation: Reconciliation;
  close(): Promise<void>;
}

export interface DepsOverrides {
  /** An already open database (tests); otherwise one is opened from the configuration. */
  database?: Database;
  /** Live mode: another clock than the wall clock (tests move it past the reconciliation delay). */
  liveClock?: Clock;
  /** An already connected chain (tests share one embedded chain); otherwise connected from the configuration. close() calls its stop(). */
  chain?: ChainConnection;
  /** WALLET_PROVIDER=circle: what the deposit side asks of Circle (tests: a stand-in). */
  circleDeposits?: CircleDepositInputs;
  /** WALLET_PROVIDER=circle: the Circle API the custody side uses (tests: the stand-in's client, or a small one). */
  circleApi?: CircleApi;
}

export async function createDeps(config: Config, overrides: DepsOverrides = {}): Promise<Deps> {
  const core = await connectCore(config, overrides);
  // The seed goes no further than what is derived from it here (the wallets, the webhook secrets).
  const { masterSeed: _seed, ...shared } = core;
  const { database, chain, clock, wallets } = core;
  const requests = requestServices(config, core);
  const metrics = createMetrics();
  registerBacklogMetrics(metrics.registry, { db: database.db, chain: chain.chain, clock });
  registerCustodyMetrics(metrics.registry, { db: database.db });
  registerTreasuryMetrics(metrics.registry, { db: database.db, chain, wallets, config, clock });
  const redis = config.redisUrl ? await connectRedis({ url: config.redisUrl, prefix: config.redisKeyPrefix }) : null;
  if (redis) metrics.registry.registerMetric(metrics.sharedLimits.redisUp);
  const movements = movementServices(config, core, metrics);
  const coins = coinServices(core, { ...requests, ...movements });
  const deps = {
    ...shared,
    db: database.db,
    metrics,
    redis,
    ...requests,
    consoleAccess: createConsoleAccess({ db: database.db, clock, passwords: requests.passwords, masterSeed: core.masterSeed }),
    ...movements,
    ...coins,
    circle: createCircleDepositServices(overrides.circleDeposits ?? (await circleDepositInputs(config, wallets)), {
      db: database.db,
      chain,
      clock,
      ...movements,
      sanctions: core.sanctions,
    }),
    ...operationsServices(core, coins),
    ...accountServices(core, requests),
    ...fiatServices(core, { ...requests, ...movements }),
    async close() {
      await redis?.close();
      // The database first: nothing may record a chain event after the chain is gone.
      await database.close();
      await chain.stop();
    },
  };
  return { ...deps, jobs: jobsOf(deps) };
}

/** The stablecoin rail, the pay-per-call endpoints, the books, health and the MCP confirmations. */
function coinServices(
  { config, database, chain, wallets, clock, sanctions }: Core,
  { limits, sanctionsControls, transferBatches, accountLookups, lifecycle }: CoinServiceInputs,
) {
  const db = database.db;
  const onChain = { db, chain, wallets, clock, config };
  return {
    stablecoinTransfers: createStablecoinTransfers({ db, clock, config, limits, accountLookups, transferBatches }),
    stablecoinWithdrawals: createStablecoinWithdrawals({ ...onChain, limits, sanctions, sanctionsControls }),
    stablecoinFunding: createStablecoinFunding(onChain),
    hotWalletOutbox: createHotWalletOutbox(onChain),
    treasury: createTreasury(onChain),
    custodyChecks: createCustodyChecks(onChain),
    depositWatching: createDepositWatching({ ...onChain, database, sanctions, sanctionsControls }),
    depositSweeps: createDepositSweeps(onChain),
    depositReleases: createDepositReleases({ db, clock }),
    nanoPayments: createNanoPayments(onChain),
    health: createHealth({ ...onChain, database, lifecycle }),
    mcpConfirmations: databaseConfirmationStore({ db, clock }),
  };
}

/** What the operator console charts and reconciles (operations/). */
function operationsServices({ database, chain, wallets, clock, processor }: Core, coins: Pick<Deps, 'treasury' | 'health'>) {
  const db = database.db;
  return {
    snapshots: createSnapshots({ db, chain, wallets, clock }),
    overview: createOverview({ db, treasury: coins.treasury, health: coins.health }),
    reconciliation: createReconciliation({ db, processor }),
  };
}

/** Accounts, their events and the webhooks that carry them. */
function accountServices(
  { config, database, clock, wallets }: Core,
  { passwords, webhookSecrets, webhookSockets, webhookDestinations }: AccountServiceInputs,
) {
  const db = database.db;
  const webhooks = { db, clock, config, webhookSecrets, webhookDestinations };
  return {
    accounts: createAccounts({ db, clock, config, passwords, wallets }),
    events: createEvents(webhooks),
    webhookDelivery: createWebhookDelivery({ ...webhooks, webhookSockets }),
  };
}

export interface CardRiskServices {
  refunds: OperatorRefunds;
  reversals: PayoutReversals;
  writeOffs: DebtWriteOffs;
  reports: ReturnType<typeof createCardRiskReports>;
}

/** The fiat rail: transfers, history, payouts, setup links, the processor's events and card risk. */
function fiatServices({ config, database, clock, processor, sandboxProcessor }: Core, { limits, accountLookups }: FiatServiceInputs) {
  const db = database.db;
  const refunds = createOperatorRefunds({ db, clock, processor });
  return {
    fiatTransfers: createFiatTransfers({
      db,
      clock,
      config,
      processor,
      limits,
      accountLookups,
      cardCredits: createCardCredits(config, database),
      transferIntents: createGroupCommit(database.db, createIntentBatchWriter({ limits }), groupCommitOptions(config, database)),
      cardSends: processor.chargesInCredit ? createCardSends(config, database, limits) : undefined,
    }),
    fiatHistory: createFiatHistory({ db }),
    payouts: createPayouts({ db, clock, processor, limits }),
    setupLinks: createSetupLinks({ db, clock, config, processor, sandboxProcessor }),
    processorEvents: createProcessorEvents({ db, clock, config }),
    cardRisk: {
      refunds,
      reversals: createPayoutReversals({ db, clock, processor }),
      writeOffs: createDebtWriteOffs({ db, clock }),
      reports: createCardRiskReports({ db }),
    },
    holdRelease: createHoldRelease({ db, clock }),
    refundReconciliation: createRefundReconciliation({ db, clock, processor, refunds }),
    sandboxCardRiskLookups: createSandboxCardRiskLookups({ db }),
  };
}

/**
 * The group commit of card credits (fiat/card-credit-batch.ts), owned by the fiat transfers service
 * (its memory of ledger accounts with it). PGlite is one connection: one batch at a time.
 */
function createCardCredits(config: Config, database: Core['database']): CardCredits {
  return createGroupCommit(database.db, writeCardCredits, groupCommitOptions(config, database), prepareCardCredits);
}

/**
 * The group commit of the sandbox's card sends (fiat/card-send-batch.ts). One batch at a time,
 * whatever GROUP_COMMIT_CONCURRENCY says (decision 0064): every batch locks its currencies'
 * processor clearing account, one ledger row, so a second batch at once would only wait for the
 * first's commit, and the batches would be smaller, each paying its statements for fewer transfers.
 */
function createCardSends(config: Config, database: Core['database'], limits: AccountLimits): CardSends {
  return createGroupCommit(
    database.db,
    createCardSendWriter({ limits }),
    { ...groupCommitOptions(config, database), concurrency: 1 },
    prepareCardSends,
  );
}

/** The fiat rail's group commits: the configured sizes, one batch at a time on PGlite (one connection). */
function groupCommitOptions(config: Config, database: Core['database']) {
  return {
    ...config.groupCommit,
    concurrency: database.kind === 'pglite' ? 1 : config.groupCommit.concurrency,
    maxQueued: MAX_QUEUED_MEMBERS,
  };
}

type FiatServiceInputs = Pick<Deps, 'limits' | 'accountLookups'>;

type AccountServiceInputs = Pick<Deps, 'passwords' | 'webhookSecrets' | 'webhookSockets' | 'webhookDestinations'>;

type CoinServiceInputs = Pick<Deps, 'limits' | 'sanctionsControls' | 'transferBatches' | 'accountLookups' | 'lifecycle'>;

/** The jobs, each built from the services it calls. */
function jobsOf(deps: Omit<Deps, 'jobs'>): Job[] {
  return allJobs({
    idempotency: deps.idempotency,
    outbox: deps.hotWalletOutbox,
    withdrawals: deps.stablecoinWithdrawals,
    nano: deps.nanoPayments,
    deposits: deps.depositWatching,
    circleDepositPoll: deps.circle.circleDepositPoll,
    sweeps: deps.depositSweeps,
    treasury: deps.treasury,
    custody: deps.custodyChecks,
    limits: deps.limits,
    snapshots: deps.snapshots,
    events: deps.events,
    webhookDelivery: deps.webhookDelivery,
    fiatTransfers: deps.fiatTransfers,
    payouts: deps.payouts,
    setupLinks: deps.setupLinks,
    holdRelease: deps.holdRelease,
    refundReconciliation: deps.refundReconciliation,
    sandboxClock: deps.sandboxClock,
  });
}

interface Core {
  config: Config;
  database: Database;
  clock: Clock;
  sandboxClock: SandboxClock | null;
  masterSeed: Uint8Array;
  wallets: WalletProvider;
  processor: PaymentProcessor;
  sandboxProcessor: SandboxProcessor | null;
  stripeWebhooks: StripeWebhookReader | null;
  chain: ChainConnection;
  sanctions: SanctionsScreening;
}

/**
 * The database, the clock, the seed, the processor and the chain, checked to belong together
 * before anything is written; on a refusal, what was opened is closed again.
 */
async function connectCore(config: Config, overrides: DepsOverrides): Promise<Core> {
  const database =
    overrides.database ??
    (await openDatabase({
      url: config.databaseUrl,
      pgliteDir: path.join(config.dataDir, 'pglite'),
      preparedStatements: config.preparedStatements,
    }));
  const sandboxClock = config.mode === 'sandbox' ? new SandboxClock(database.db) : null;
  await sandboxClock?.refresh();
  const clock: Clock = sandboxClock ?? overrides.liveClock ?? systemClock;
  const processors = await createProcessors(config, { db: database.db, clock });
  const masterSeed = loadMasterSeed({ seedHex: config.masterSeedHex, dataDir: config.dataDir });
  const seedWallets = createHdWalletProvider(masterSeed);
  let chain: ChainConnection;
  try {
    // The seed first (it needs no chain): the embedded chain's tokens belong to a key derived from it.
    await checkSeedIdentity({ db: database.db, wallets: seedWallets });
    chain = overrides.chain ?? (await connectChain(config, seedWallets));
  } catch (error) {
    await database.close();
    throw error;
  }
  try {
    // Before anything is written: this database, this seed and this chain belong together.
    const identityWallets = config.circle ? { provider: 'circle' as const, seedAddress: seedWallets.seedAddress } : seedWallets;
    await checkInstallationIdentity({ db: database.db, chain, wallets: identityWallets });
    const wallets = config.circle ? await openCircle(config.circle, { database, chain, masterSeed, overrides }) : seedWallets;
    const sanctions = createSanctions(config, chain);
    return { config, database, clock, sandboxClock, masterSeed, wallets, ...processors, chain, sanctions };
  } catch (error) {
    await database.close();
    await chain.stop();
    throw error;
  }
}

/**
 * WALLET_PROVIDER=circle: Circle's API (a stand-in's in tests), the wallet set and the treasury
 * wallet (made once, recorded), and on the embedded chain gas for the x402 relay key.
 */
async function openCircle(
  circle: NonNullable<Config['circle']>,
  deps: { database: Database; chain: ChainConnection; masterSeed: Uint8Array; overrides: DepsOverrides },
): Promise<CircleWalletProvider> {
  // Loaded only here: Circle's SDK (and axios under it) is about 24 MB of a process's memory that
  // WALLET_PROVIDER=self never uses.
  const { createCircleApi } = await import('./adapters/circle/circle-client.js');
  const api =
    deps.overrides.circleApi ??
    createCircleApi({
      apiKey: circle.apiKey,
      entitySecret: circle.entitySecret,
      apiBase: circle.apiBase,
      blockchain: circle.blockchain,
      accountType: circle.accountType,
      tokens: deps.chain.tokens,
    });
  const wallets = await openCircleWallets({ db: deps.database.db, api, circle, masterSeed: deps.masterSeed });
  if (deps.chain.sandboxChain) await grantSandboxGas(deps.chain.sandboxChain, wallets.relayer.address);
  return wallets;
}

/** WALLET_PROVIDER=circle: the deposit side reads the same Circle, and the treasury that sends is the one just opened. */
async function circleDepositInputs(config: Config, wallets: WalletProvider): Promise<CircleDepositInputs | null> {
  if (wallets.provider !== 'circle' || !config.circle) return null;
  const { createCircleNotificationVerifier } = await import('./adapters/circle/circle-notifications.js');
  return {
    api: wallets.circle.api,
    verifier: createCircleNotificationVerifier({ apiBase: config.circle.apiBase, apiKey: config.circle.apiKey }),
    treasuryAddress: async () => wallets.hotWallet.address,
  };
}

/** What the request path and the webhooks keep for the process: hashing, look-ups, keys, sockets. */
function requestServices(config: Config, { database, masterSeed }: Core) {
  return {
    passwords: createPasswordHasher({
      costLog2: config.passwordHashCostLog2,
      concurrency: config.passwordHashConcurrency,
      maxQueued: config.passwordHashQueueMax,
    }),
    accountLookups: createAccountLookups(database.db),
    idempotency: createIdempotencyStore(database.db),
    lifecycle: createLifecycle(),
    webhookSecrets: createWebhookSecrets(masterSeed),
    webhookSockets: createSocketSlots({ perProcess: config.webhooks.maxSockets, perEndpoint: config.webhooks.maxSocketsPerEndpoint }),
    webhookDestinations: createDestinationGuard(),
  };
}

/** The controls on money leaving an account (DESIGN §17), the group commit, and the operators. */
function movementServices(config: Config, { database, clock, sanctions, chain }: Core, metrics: Metrics) {
  const limits = createAccountLimits({ db: database.db, clock, settings: config.limits });
  return {
    limits,
    // PGlite is one connection: one batch at a time, the next gathering while it runs.
    transferBatches: createGroupCommit(database.db, createTransferBatchWriter({ limits }), {
      ...config.groupCommit,
      concurrency: database.kind === 'pglite' ? 1 : config.groupCommit.concurrency,
      maxQueued: MAX_QUEUED_MEMBERS,
      onBatch: ({ size, ending }) => metrics.groupCommitBatches.observe({ ending }, size),
    }),
    accountFreezes: createAccountFreezes({ db: database.db, clock }),
    accountDirectory: createAccountDirectory({
      db: database.db,
      // The account's effective limits (as GET /account/limits shows them) and the operator's overrides.
      limits: {
        forOperators: async (accountId) => ({ effective: await limits.lines(accountId), overrides: await limits.overrides(accountId) }),
      },
    }),
    sanctionsControls: createSanctionsControls({ db: database.db, screening: sanctions, clock }),
    sandboxSanctions: createSandboxSanctions({ chain, screening: sanctions }),
    operators: createOperators({ db: database.db, clock, publicUrl: config.publicUrl, bootstrapToken: config.treasury.operatorToken }),
    auditLog: createAuditLogReader({ db: database.db }),
  };
}

/**
 * The list file and the oracle: SANCTIONS_ORACLE_ADDRESS, or in sandbox mode on the embedded chain
 * the stand-in deployed there. Until the app's logger is attached, its log lines go to stderr.
 */
function createSanctions(config: Config, chain: ChainConnection): SanctionsScreening {
  const oracleAddress =
    config.sanctions.oracleAddress ?? (config.mode === 'sandbox' && chain.embedded ? SANDBOX_SANCTIONS_ORACLE : undefined);
  return createSanctionsScreening({
    oracle:
      oracleAddress === undefined
        ? null
        : createSanctionsOracle({
            rpcUrl: chain.rpcUrl,
            chainId: chain.chainId,
            address: oracleAddress,
            timeoutMs: config.sanctions.oracleTimeoutMs,
          }),
    listFile: config.sanctions.listFile,
    now: () => Date.now(),
  });
}

/**
 * Sandbox mode: the built-in sandbox processor. Live mode: Stripe, with its webhook reader, loaded
 * only here (a sandbox installation never loads Stripe's SDK).
 */
async function createProcessors(
  config: Config,
  deps: { db: Db; clock: Clock },
): Promise<Pick<Deps, 'processor' | 'sandboxProcessor' | 'stripeWebhooks'>> {
  if (config.mode === 'sandbox') {
    const sandboxProcessor = new SandboxProcessor(deps);
    return { processor: sandboxProcessor, sandboxProcessor, stripeWebhooks: null };
  }
  if (!config.stripe) throw new Error('live mode needs the Stripe settings');
  const { openStripe } = await import('./adapters/processor/stripe/stripe-live.js');
  return { ...openStripe(config.stripe, deps.clock), sandboxProcessor: null };
}
