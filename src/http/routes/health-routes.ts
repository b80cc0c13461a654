import { Type } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { checkReadiness, READINESS_CHECKS } from '../../health/readiness-service.js';
import { AppError } from '../../platform/errors.js';
import { problems } from '../schemas/common.js';
import { sendProblem } from '../plugins/problem-details.js';
import type { App } from '../types.js';

const CheckSchema = Type.Object({
  status: Type.Union([Type.Literal('pass'), Type.Literal('fail')]),
  detail: Type.Optional(Type.String()),
});
const ChecksSchema = Type.Object(Object.fromEntries(READINESS_CHECKS.map((name) => [name, CheckSchema])), {
  description: 'database: a query answers; chain: the node answers eth_blockNumber within 2 s; custody: the books-against-custody check is not failing; draining: the process is not about to stop',
});

export async function healthRoutes(app: App, deps: Deps): Promise<void> {
  app.get(
    '/health',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['service'],
        summary: 'Service health',
        security: [],
        response: {
          200: Type.Object({
            status: Type.Literal('ok'),
            mode: Type.Union([Type.Literal('sandbox'), Type.Literal('live')]),
            database: Type.Union([Type.Literal('postgres'), Type.Literal('pglite')]),
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
          }),
          ...problems(),
        },
      },
    },
    async () => {
      await deps.db.selectFrom('sandbox_clock').select('id').execute();
      const { chain } = deps;
      return {
        status: 'ok' as const,
        mode: deps.config.mode,
        database: deps.database.kind,
        time: deps.clock.now().toISOString(),
        ...(deps.config.mode === 'sandbox' ? { chain: { id: chain.chainId, rpcUrl: chain.rpcUrl, tokens: { ...chain.tokens } } } : {}),
      };
    },
  );

  // Liveness: the process answers. It asks no dependency, so a lost database or chain never makes an
  // orchestrator restart a process that would come back no better.
  app.get(
    '/health/live',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['service'],
        summary: 'Liveness: the process answers',
        security: [],
        response: { 200: Type.Object({ status: Type.Literal('live') }), ...problems() },
      },
    },
    async () => ({ status: 'live' as const }),
  );

  // Readiness: whether to send this process traffic. 503 (a problem document with the same checks)
  // names every failing check.
  app.get(
    '/health/ready',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['service'],
        summary: 'Readiness: database, chain, custody check and draining',
        security: [],
        response: { 200: Type.Object({ status: Type.Literal('ready'), checks: ChecksSchema }), ...problems() },
      },
    },
    async (request, reply) => {
      const readiness = await checkReadiness(deps);
      if (readiness.ready) return { status: 'ready' as const, checks: readiness.checks };
      const reasons = readiness.failing.map((name) => `${name}: ${readiness.checks[name].detail ?? 'failing'}`).join('; ');
      return sendProblem(request, reply, new AppError('not_ready', `Not ready: ${reasons}.`, { checks: readiness.checks }, { 'Retry-After': '5' }));
    },
  );
}
