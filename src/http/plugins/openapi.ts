// The OpenAPI 3.1 document at GET /openapi.json, generated from the route schemas, and an API
// reference page at GET /docs served from local assets (nothing is fetched from elsewhere).
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ERROR_CODES } from '../../platform/errors.js';
import { TAGS } from '../schemas/operation.js';
import { exampleProblem } from '../schemas/problem-examples.js';
import { titleOf } from './problem-details.js';
import type { App } from '../types.js';

export async function registerOpenApi(app: App, publicUrl: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'peerpay — Peer-to-Peer Payment Service Interface',
        version: '3.0.0',
        description:
          'Moves money between registered users, people or AI agents, on a fiat rail (card or ACH) and a stablecoin rail (USDC, EURC on Polygon). ' +
          'Errors are RFC 9457 problem documents (`application/problem+json`) with a stable `code`; every operation lists the codes it can answer, by status. ' +
          'Operation ids are stable: client SDKs are generated from this document.',
        license: { name: 'MIT', identifier: 'MIT' },
      },
      tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API key with prefix pa_live_' } },
        // One example problem document per code, referenced by every operation that can answer it.
        examples: Object.fromEntries(ERROR_CODES.map((code) => [code, { summary: titleOf(code), value: exampleProblem(code) }])),
      },
      security: [{ bearer: [] }],
    },
    // Public routes declare `security: []` on their schema; the rest inherit the bearer scheme.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });
  // The reference page and its assets are public.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/docs')) route.config = { ...(route.config as object), auth: 'public' };
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
  app.get('/openapi.json', { config: { auth: 'public' }, schema: { hide: true } }, async () => app.swagger());
}
