// The OpenAPI 3.1 document at GET /openapi.json, generated from the route schemas, and an API
// reference page at GET /docs served from local assets (nothing is fetched from elsewhere).
//
// The operator API (/admin/*) is left out of it and has its own document, served to operators at
// /admin/openapi.json (DESIGN §17): a second instance of @fastify/swagger, over the same routes,
// that keeps only the /admin/* ones. Both decide by path, so a route added under /admin later is in
// the operators' document and out of the public one without anyone marking it.
import swagger, { type SwaggerTransform, type SwaggerTransformObject } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ERROR_CODES } from '../../platform/errors.js';
import { TAGS } from '../schemas/operation.js';
import { exampleProblem } from '../schemas/problem-examples.js';
import { titleOf } from './problem-details.js';
import type { App } from '../types.js';

/** The paths of the operator API. */
export const isOperatorPath = (url: string) => url === '/admin' || url.startsWith('/admin/');

const INFO = {
  title: 'peerpay — Peer-to-Peer Payment Service Interface',
  version: '3.0.0',
  license: { name: 'MIT', identifier: 'MIT' },
} as const;

// Public routes declare `security: []` on their schema; the rest inherit the bearer scheme.
const refResolver = {
  buildLocalReference: (json: { $id?: unknown }, _baseUri: unknown, _fragment: unknown, i: number) =>
    typeof json.$id === 'string' ? json.$id : `def-${i}`,
};

type Paths = Record<string, Record<string, unknown>>;

/**
 * Keeps the paths `keep` accepts. On the built document rather than per route only: a route's own
 * swaggerTransform (config.swaggerTransform) replaces an instance's `transform`.
 */
function pathsWhere(keep: (url: string) => boolean, operation: (op: object) => object = (op) => op): SwaggerTransformObject {
  return (document) => {
    const openapi = (document as { openapiObject: { paths?: Paths } }).openapiObject;
    const paths: Paths = {};
    for (const [url, ops] of Object.entries(openapi.paths ?? {}))
      if (keep(url)) paths[url] = Object.fromEntries(Object.entries(ops).map(([method, op]) => [method, operation(op as object)]));
    return { ...openapi, paths };
  };
}

/** The operators' document: the operator API's routes, which are hidden from the public one, shown. */
const operatorRoutesShown: SwaggerTransform = ({ schema, url }) => ({ schema: { ...schema, hide: !isOperatorPath(url) }, url });

/** The operator API's own document, built by the second @fastify/swagger instance (registerOpenApi). */
export function operatorOpenApiDocument(app: App): unknown {
  return (app as unknown as { operatorSwagger: () => unknown }).operatorSwagger();
}

export async function registerOpenApi(app: App, publicUrl: string): Promise<void> {
  await app.register(swagger, {
    transformObject: pathsWhere((url) => !isOperatorPath(url)),
    openapi: {
      openapi: '3.1.0',
      info: {
        ...INFO,
        description:
          'Moves money between registered users, people or AI agents, on a fiat rail (card or ACH) and a stablecoin rail (USDC, EURC on Polygon). ' +
          'Errors are RFC 9457 problem documents (`application/problem+json`) with a stable `code`; every operation lists the codes it can answer, by status. ' +
          'Operation ids are stable: client SDKs are generated from this document.',
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
    refResolver,
  });
  await registerOperatorOpenApi(app, publicUrl);
  // The reference page and its assets are public.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/docs')) route.config = { ...(route.config as object), auth: 'public' };
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
  app.get('/openapi.json', { config: { auth: 'public' }, schema: { hide: true } }, async () => app.swagger());
}

async function registerOperatorOpenApi(app: App, publicUrl: string): Promise<void> {
  await app.register(swagger, {
    decorator: 'operatorSwagger',
    transform: operatorRoutesShown,
    // Each operation under the operator's credential (operator routes declare `security: []`, as they take no API key).
    transformObject: pathsWhere(isOperatorPath, (op) => ({ ...op, security: [{ operator: [] }] })),
    openapi: {
      openapi: '3.1.0',
      info: {
        ...INFO,
        title: 'peerpay — operator API',
        description:
          'The operator API under /admin/*, for operators only (`Authorization: Bearer po_…`, or OPERATOR_TOKEN). Without a valid operator credential every /admin/* path answers 404, as an unknown path does; a role too low answers 403 `operator_forbidden`. ' +
          'Roles: `viewer` reads; `support` also freezes, unfreezes, sets limits and releases blocked deposits; `admin` also refunds, writes off, reverses payouts and manages operators. Every write takes a `note` and is recorded in the audit log (GET /admin/audit).',
      },
      tags: [{ name: 'service', description: TAGS.service }],
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: { operator: { type: 'http', scheme: 'bearer', description: 'An operator token (prefix po_), or OPERATOR_TOKEN' } },
        examples: Object.fromEntries(ERROR_CODES.map((code) => [code, { summary: titleOf(code), value: exampleProblem(code) }])),
      },
      security: [{ operator: [] }],
    },
    refResolver,
  });
}
