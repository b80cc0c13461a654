import { Type } from 'typebox';
import type { Health } from '../../health/health-service.js';
import { READINESS_CHECKS } from '../../health/readiness-service.js';
import { AppError } from '../../platform/errors.js';
import { StringEnum } from '../schemas/common.js';
import { operation } from '../schemas/operation.js';
import { sendProblem } from '../plugins/problem-details.js';
import { LOCAL_KEY_PREFIX } from '../plugins/rate-limit-store.js';
import type { App } from '../types.js';
import type { Config } from '../../config.js';

/** What these routes use: the health service, and the default rate limit (the probes' budget). */
export type HealthRoutesDeps = { health: Health; config: Pick<Config, 'rateLimits'> };

const CheckSchema = Type.Object({
  status: StringEnum(['pass', 'fail']),
  detail: Type.Optional(Type.String()),
});
const ChecksSchema = Type.Object(Object.fromEntries(READINESS_CHECKS.map((name) => [name, CheckSchema])), {
  description:
    'database: a query answers; chain: the node answers eth_blockNumber within 2 s; custody: the books-against-custody check is not failing; gas: the hot wallet holds at least HOT_WALLET_MIN_GAS_WEI of gas; draining: the process is not about to stop',
});

const HealthResponse = Type.Object(
  {
    status: Type.Literal('ok'),
    mode: StringEnum(['sandbox', 'live']),
    database: StringEnum(['postgres', 'pglite']),
    time: Type.String({ format: 'date-time', description: 'The service clock (moved by test helpers in sandbox mode)' }),
    chain: Type.Optional(
      Type.Object(
        {
          id: Type.Integer({ description: 'Chain id (137, Polygon)' }),
          rpcUrl: Type.String({ description: 'JSON-RPC URL of the embedded chain' }),
          tokens: Type.Object({ USDC: Type.String(), EURC: Type.String() }),
        },
        { description: 'Sandbox mode only: the embedded chain, for clients and tests to read directly' },
      ),
    ),
  },
  {
    examples: [
      {
        status: 'ok',
        mode: 'sandbox',
        database: 'pglite',
        time: '2026-01-05T10:00:00.000Z',
        chain: {
          id: 137,
          rpcUrl: 'http://127.0.0.1:39127',
          tokens: { USDC: '0x5FbDB2315678afecb367f032d93F642f64180aa3', EURC: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512' },
        },
      },
    ],
  },
);

const READY_EXAMPLE = {
  database: { status: 'pass' },
  chain: { status: 'pass' },
  custody: { status: 'pass' },
  gas: { status: 'pass' },
  draining: { status: 'pass' },
};

/** A probe route: limited by the probes' budget instead of the default one. */
type Probe = ReturnType<typeof probeLimiter>;

export async function healthRoutes(app: App, deps: HealthRoutesDeps): Promise<void> {
  const probe = probeLimiter(app, deps.config);
  healthRoute(app, deps.health);
  livenessRoute(app, probe);
  readinessRoute(app, deps.health, probe);
}

// The probes are limited per process, in its memory, even when the other limits are shared in
// Redis: a load balancer checks every process from one address, and a budget shared by all of
// them would run out as the fleet grows, failing every check at once.
function probeLimiter(app: App, config: Pick<Config, 'rateLimits'>) {
  const limiter = app.rateLimit({
    max: config.rateLimits.defaultPerMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => `${LOCAL_KEY_PREFIX}probe:ip:${request.ip}`,
  });
  return <O extends { config: object }>(options: O) => ({
    ...options,
    config: { ...options.config, rateLimit: false as const },
    onRequest: limiter,
  });
}

/** GET /health: the service answers, with its mode, database, clock and (sandbox) chain. */
function healthRoute(app: App, health: Health): void {
  app.get(
    '/health',
    operation({
      operationId: 'getHealth',
      tag: 'service',
      summary: 'Service health',
      auth: 'public',
      responses: { 200: HealthResponse },
      errors: [],
    }),
    async () => ({ status: 'ok' as const, ...(await health.summary()) }),
  );
}

// Liveness: the process answers. It asks no dependency, so a lost database or chain never makes an
// orchestrator restart a process that would come back no better.
function livenessRoute(app: App, probe: Probe): void {
  app.get(
    '/health/live',
    probe(
      operation({
        operationId: 'getLiveness',
        tag: 'service',
        summary: 'Liveness: the process answers',
        auth: 'public',
        responses: { 200: Type.Object({ status: Type.Literal('live') }, { examples: [{ status: 'live' }] }) },
        errors: [],
      }),
    ),
    async () => ({ status: 'live' as const }),
  );
}

// Readiness: whether to send this process traffic. 503 (a problem document with the same checks)
// names every failing check.
function readinessRoute(app: App, health: Health, probe: Probe): void {
  app.get(
    '/health/ready',
    probe(
      operation({
        operationId: 'getReadiness',
        tag: 'service',
        summary: 'Readiness: database, chain, custody check and draining',
        description:
          '503 `not_ready` names every failing check in `detail`, and carries all of them in `checks`. Public: a check says whether it passes and since when it fails, never a figure (amounts, gas balance, block numbers, addresses).',
        auth: 'public',
        responses: {
          200: Type.Object(
            { status: Type.Literal('ready'), checks: ChecksSchema },
            { examples: [{ status: 'ready', checks: READY_EXAMPLE }] },
          ),
        },
        errors: ['not_ready'],
      }),
    ),
    async (request, reply) => {
      const readiness = await health.readiness();
      if (readiness.ready) return { status: 'ready' as const, checks: readiness.checks };
      const reasons = readiness.failing.map((name) => `${name}: ${readiness.checks[name].detail ?? 'failing'}`).join('; ');
      return sendProblem(
        request,
        reply,
        new AppError('not_ready', `Not ready: ${reasons}.`, { checks: readiness.checks }, { 'Retry-After': '5' }),
      );
    },
  );
}
