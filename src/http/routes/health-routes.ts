import { Type } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { problems } from '../schemas/common.js';
import type { App } from '../types.js';

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
}
