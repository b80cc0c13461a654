// buildApp(deps): the HTTP application with every plugin and route module registered explicitly.
// It never listens; main.ts and the tests do.
import Fastify, { LogController, type FastifyReply, type FastifyRequest, type FastifyServerFactory } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { rateLimitStore } from './http/plugins/rate-limit-store.js';
import { sharedLimitsEvents } from './http/plugins/shared-limits-events.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from './deps.js';
import type { Config } from './config.js';
import { AppError } from './platform/errors.js';
import { newRequestId } from './platform/ids.js';
import { ProblemSchema } from './http/schemas/common.js';
import { clientErrorProblem, frameworkErrorProblem, registerProblemDetails } from './http/plugins/problem-details.js';
import { registerAuth } from './http/plugins/auth.js';
import { registerIdempotency } from './http/plugins/idempotency.js';
import { registerTextInput } from './http/plugins/text-input.js';
import { registerMetrics } from './http/plugins/metrics.js';
import { registerOpenApi } from './http/plugins/openapi.js';
import { lazySerializerFactory } from './http/plugins/lazy-serializers.js';
import { redactUrl } from './http/plugins/log-redaction.js';
import { healthRoutes } from './http/routes/health-routes.js';
import { accountRoutes } from './http/routes/account-routes.js';
import { fiatRoutes } from './http/routes/fiat-routes.js';
import { stablecoinFundingRoutes } from './http/routes/stablecoin-funding-routes.js';
import { stablecoinRoutes } from './http/routes/stablecoin-routes.js';
import { nanoRoutes } from './http/routes/nano-routes.js';
import { adminRoutes } from './http/routes/admin-routes.js';
import { adminCardRiskRoutes, type AdminCardRiskServices } from './http/routes/admin-card-risk-routes.js';
import { adminAccountsRoutes } from './http/routes/admin-accounts-routes.js';
import { adminOperatorsRoutes } from './http/routes/admin-operators-routes.js';
import { adminAuditRoutes } from './http/routes/admin-audit-routes.js';
import { adminOpenApiRoutes } from './http/routes/admin-openapi-routes.js';
import { stablecoinWithdrawalRoutes } from './http/routes/stablecoin-withdrawal-routes.js';
import { linkPagesRoutes } from './http/routes/link-pages-routes.js';
import { fundingPagesRoutes } from './http/routes/funding-pages-routes.js';
import { testHelperRoutes } from './http/routes/test-helper-routes.js';
import { testHelperCardRiskRoutes } from './http/routes/test-helper-card-risk-routes.js';
import { stablecoinFaucetRoutes } from './http/routes/stablecoin-faucet-routes.js';
import { stripeWebhookRoutes } from './http/routes/stripe-webhook-routes.js';
import { circleWebhookRoutes } from './http/routes/circle-webhook-routes.js';
import { processorLinkPagesRoutes } from './http/routes/processor-link-pages-routes.js';
import type { App } from './http/types.js';
import { mcpRoutes } from './mcp/mcp-routes.js';
import { eventsRoutes } from './http/routes/events-routes.js';
import { limitsRoutes } from './http/routes/limits-routes.js';
import { adminDepositsRoutes } from './http/routes/admin-deposits-routes.js';
import { testHelperSanctionsRoutes } from './http/routes/test-helper-sanctions-routes.js';
import { consolePlugin } from './console/console-plugin.js';
import type { ConsoleRoute } from './console/console-route.js';
import { operatorsPages } from './console/pages/operators-pages.js';
import { auditPages } from './console/pages/audit-pages.js';
import { createOverviewPages } from './console/pages/overview-pages.js';
import { createReconciliationPages } from './console/pages/reconciliation-pages.js';
import { createAccountPages } from './console/pages/account-pages.js';
import { createTransferPages } from './console/pages/transfer-pages.js';
import { createDisputePages } from './console/pages/dispute-pages.js';
import { createOperationsPages } from './console/pages/operations-pages.js';
import { createAccountActivity } from './admin/accounts/account-activity-repository.js';
import { createTransferDirectory } from './admin/transfers/transfer-directory.js';
import { createOperationsReports } from './admin/operations/operations-reports.js';

export interface BuildAppOptions {
  /** A pino destination for the logs (tests capture them); defaults to stdout. */
  logStream?: NodeJS.WritableStream;
  /** main.ts: the HTTP server it bound before opening the database (startup/start-up.ts). */
  serverFactory?: FastifyServerFactory;
}

/**
 * One log line per request, when it is answered (method, path, status and time), not one on
 * arrival and one on answer: the same facts at half the logging cost of every request. Errors are
 * logged as Fastify logs them.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) super.requestCompleted(error, request, reply);
    else request.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

export async function buildApp(deps: Deps, options: BuildAppOptions = {}): Promise<App> {
  const app = createFastify(deps.config, options);
  registerJsonParser(app);
  registerAnswerHeaders(app, deps);
  await registerPlugins(app, deps);
  const operatorServices = operatorActions(deps);
  await registerRoutes(app, deps, operatorServices);
  await registerModeRoutes(app, deps);
  if (deps.config.console)
    await app.register(async (scope) => consolePlugin(scope as App, consoleDeps(deps), consolePages(deps, operatorServices)));
  return app;
}

/** The operator console's pages (DESIGN §18): each page module adds its routes here, one line each. */
function consolePages(deps: Deps, actions: OperatorActions): ConsoleRoute[] {
  const { db } = deps;
  const activity = createAccountActivity({ db });
  const operations = createOperationsReports({ db });
  return [
    ...createOverviewPages({ overview: deps.overview, snapshots: deps.snapshots, clock: deps.clock }),
    ...operatorsPages({ operators: deps.operators, auditLog: deps.auditLog }),
    ...auditPages({ auditLog: deps.auditLog }),
    ...createAccountPages({
      directory: deps.accountDirectory,
      activity,
      freezes: deps.accountFreezes,
      limits: deps.limits,
      releases: deps.depositReleases,
      writeOffs: actions.cardRisk.writeOffs,
    }),
    ...createTransferPages({ transfers: createTransferDirectory({ db }), activity, refunds: actions.cardRisk.refunds }),
    ...createDisputePages({ reports: actions.cardRisk.reports, operations, reversals: actions.cardRisk.reversals }),
    ...createOperationsPages({ operations }),
    ...createReconciliationPages({ reconciliation: deps.reconciliation, clock: deps.clock }),
  ];
}

function consoleDeps(deps: Deps) {
  return { db: deps.db, access: deps.consoleAccess, secureCookies: deps.config.mode === 'live' };
}

function createFastify(config: Config, options: BuildAppOptions): App {
  return Fastify({
    logger: {
      level: config.logLevel,
      ...(options.logStream ? { stream: options.logStream } : {}),
      // Logs carry no secrets: no headers or bodies are logged, and link tokens are cut out of URLs.
      serializers: {
        req: (req) => ({ method: req.method, url: redactUrl(req.url ?? ''), remoteAddress: req.ip }),
      },
      redact: { paths: ['req.headers.authorization', '*.password', '*.apiKey'], censor: '[redacted]' },
    },
    ...(options.serverFactory ? { serverFactory: options.serverFactory } : {}),
    logController: new OneLinePerRequest(),
    genReqId: newRequestId,
    requestIdHeader: false,
    bodyLimit: config.bodyLimitBytes,
    // A hop count is passed as false: Fastify 5.12 trusts nothing for one anyway (config.ts refuses it).
    trustProxy:
      typeof config.trustProxy === 'number' ? false : typeof config.trustProxy === 'boolean' ? config.trustProxy : [...config.trustProxy],
    frameworkErrors: frameworkErrorProblem,
    clientErrorHandler: clientErrorProblem,
    // Response serializers are compiled on first use, not all at start (http/plugins/lazy-serializers.ts).
    schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory() } },
    ajv: {
      // Bodies are taken as sent: no type coercion, no silently dropped fields (unknown fields are
      // refused by schemas that forbid them).
      customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
}

function registerJsonParser(app: App): void {
  // "No body" endpoints are often called with a JSON content type and an empty body; accept that.
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  // JSON only: a text/plain body on a JSON API is a client error (415), not a string to validate.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined);
    // The default parser answers through `done`; the promise its type allows carries nothing.
    void defaultJson(request, body as string, done);
  });
}

function registerAnswerHeaders(app: App, deps: Deps): void {
  app.addHook('onSend', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    // Draining: each connection closes after its answer, so that a client or load balancer opens
    // its next one elsewhere rather than race this process closing it while idle.
    if (deps.lifecycle.draining) reply.header('Connection', 'close');
    // The IETF RateLimit / RateLimit-Policy fields, from what the rate limiter counted.
    const limit = reply.getHeader('ratelimit-limit');
    if (limit !== undefined) {
      reply.header('RateLimit-Policy', `"default";q=${String(limit)};w=60`);
      reply.header(
        'RateLimit',
        `"default";r=${String(reply.getHeader('ratelimit-remaining') ?? 0)};t=${String(reply.getHeader('ratelimit-reset') ?? 0)}`,
      );
    }
  });
}

/** What every route relies on: problem answers, the OpenAPI document, auth, rate limits, idempotency, metrics. */
async function registerPlugins(app: App, deps: Deps): Promise<void> {
  const { config } = deps;
  app.addSchema(ProblemSchema);
  registerProblemDetails(app);
  await registerOpenApi(app, config.publicUrl);
  registerAuth(app, deps.accountLookups);
  registerTextInput(app);
  await app.register(rateLimit, {
    global: true,
    // onRequest, after auth's onRequest hook has named the caller: every request counts, also one
    // whose body is malformed or invalid (refused later, in parsing or validation) and one whose key
    // is refused (auth answers 401 in preParsing, after this count, per client address).
    hook: 'onRequest',
    max: config.rateLimits.defaultPerMinute,
    timeWindow: 60_000,
    // Per account for authenticated requests (DESIGN §15): more keys are no more budget.
    keyGenerator: (request) => (request.caller ? `account:${request.caller.accountId}` : `ip:${request.ip}`),
    // In Redis with REDIS_URL (one budget across a fleet), falling back to memory when it is away.
    store: rateLimitStore(deps.redis, sharedLimitsEvents(deps.metrics.sharedLimits, app.log)),
    enableDraftSpec: true,
    errorResponseBuilder: (_request, context) =>
      new AppError('rate_limited', `Rate limit of ${context.max} requests per minute exceeded; retry after ${context.after}.`),
  });
  registerIdempotency(app, deps.idempotency);
  // With METRICS_PORT, /metrics is served by main.ts's second listener only.
  registerMetrics(app, deps.metrics.registry, { serveOnMainPort: config.metricsPort === undefined });
}

async function registerRoutes(app: App, deps: Deps, actions: OperatorActions): Promise<void> {
  deps.sanctions.attachLog(app.log);
  await app.register(async (scope) => healthRoutes(scope as App, { health: deps.health, config: deps.config }));
  await app.register(async (scope) =>
    accountRoutes(scope as App, {
      accounts: deps.accounts,
      paymentMethods: deps.setupLinks.paymentMethods,
      rateLimits: deps.config.rateLimits,
    }),
  );
  await app.register(async (scope) =>
    fiatRoutes(scope as App, { transfers: deps.fiatTransfers, history: deps.fiatHistory, setupLinks: deps.setupLinks }),
  );
  await app.register(async (scope) => stablecoinFundingRoutes(scope as App, { funding: deps.stablecoinFunding }));
  await app.register(async (scope) =>
    stablecoinRoutes(scope as App, { transfers: deps.stablecoinTransfers, withdrawals: deps.stablecoinWithdrawals }),
  );
  await app.register(async (scope) => nanoRoutes(scope as App, { nano: deps.nanoPayments, config: deps.config }));
  await app.register(async (scope) =>
    stablecoinWithdrawalRoutes(scope as App, { withdrawals: deps.stablecoinWithdrawals, config: deps.config }),
  );
  const operatorGate = { config: deps.config, operators: deps.operators };
  await app.register(async (scope) => adminRoutes(scope as App, { ...operatorGate, treasury: deps.treasury }));
  await app.register(async (scope) => adminCardRiskRoutes(scope as App, actions.cardRisk, operatorGate));
  await app.register(async (scope) =>
    adminAccountsRoutes(scope as App, { directory: deps.accountDirectory, freezes: deps.accountFreezes }, operatorGate),
  );
  await app.register(async (scope) => adminDepositsRoutes(scope as App, deps.depositReleases, operatorGate));
  await app.register(async (scope) => adminOperatorsRoutes(scope as App, operatorGate));
  await app.register(async (scope) => adminAuditRoutes(scope as App, { ...operatorGate, auditLog: deps.auditLog }));
  await app.register(async (scope) => adminOpenApiRoutes(scope as App, operatorGate));
  await app.register(async (scope) => eventsRoutes(scope as App, deps.events));
  await app.register(async (scope) => limitsRoutes(scope as App, { ...operatorGate, limits: deps.limits }));
  // The MCP server (DESIGN §12); its tools call this app in-process with the caller's key.
  await app.register(async (scope) => mcpRoutes(scope as App, deps.mcpConfirmations, (request) => app.inject(request)));
  // Both modes: the funding link pages (sandbox buttons on the embedded chain, a deposit page elsewhere).
  await app.register(async (scope) =>
    fundingPagesRoutes(scope as App, {
      funding: deps.stablecoinFunding,
      clock: deps.clock,
      chain: deps.chain,
      chainConfirmations: deps.config.chainConfirmations,
    }),
  );
}

/** The routes of one mode only. */
async function registerModeRoutes(app: App, deps: Deps): Promise<void> {
  const { config } = deps;
  // Sandbox mode only: peerpay hosts the processor's setup pages, and the test helpers exist.
  if (config.mode === 'sandbox' && deps.sandboxProcessor && deps.sandboxClock) {
    await app.register(async (scope) => linkPagesRoutes(scope as App, { setupLinks: deps.setupLinks, clock: deps.clock }));
    await app.register(async (scope) =>
      testHelperRoutes(scope as App, { runner: { jobs: deps.jobs, metrics: deps.metrics }, sandboxClock: deps.sandboxClock }),
    );
    const sandbox = deps.sandboxProcessor;
    await app.register(async (scope) =>
      testHelperCardRiskRoutes(scope as App, { processorEvents: deps.processorEvents, lookups: deps.sandboxCardRiskLookups }, sandbox),
    );
    await app.register(async (scope) => stablecoinFaucetRoutes(scope as App, { funding: deps.stablecoinFunding }));
    await app.register(async (scope) => testHelperSanctionsRoutes(scope as App, deps.sandboxSanctions));
  }
  // Live mode: Stripe hosts the setup pages and tells peerpay by webhook.
  const { stripeWebhooks } = deps;
  if (stripeWebhooks) {
    await app.register(async (scope) => stripeWebhookRoutes(scope as App, deps.processorEvents, stripeWebhooks));
    await app.register(async (scope) => processorLinkPagesRoutes(scope as App, deps.setupLinks));
  }
  // WALLET_PROVIDER=circle (either mode): Circle's notifications of deposits.
  const { circleNotifications, circleDeposits } = deps.circle;
  if (circleNotifications && circleDeposits) {
    await app.register(async (scope) => circleWebhookRoutes(scope as App, { verifier: circleNotifications, circleDeposits }));
  }
}

interface OperatorActions {
  cardRisk: AdminCardRiskServices;
}

/** The operator's money actions, built once: the operator API and the console call the same services. */
function operatorActions(deps: Deps): OperatorActions {
  return { cardRisk: deps.cardRisk };
}
