// GET /admin/openapi.json (DESIGN §17): the operator API's own OpenAPI document, for any operator;
// without an operator credential it answers as an unknown path, as every /admin/* path does.
import { Type } from 'typebox';
import type { Config } from '../../config.js';
import type { Operators } from '../../compliance/operators/operators-service.js';
import { operatorOnly } from '../plugins/operator-auth.js';
import { operatorOpenApiDocument } from '../plugins/openapi.js';
import { operation } from '../schemas/operation.js';
import type { App } from '../types.js';

export async function adminOpenApiRoutes(
  app: App,
  deps: { config: Pick<Config, 'rateLimits'>; operators: Pick<Operators, 'authenticate'> },
): Promise<void> {
  const forOperators = operatorOnly(app, deps);
  app.get(
    '/admin/openapi.json',
    forOperators(
      operation({
        operationId: 'getOperatorOpenApi',
        tag: 'service',
        summary: 'This document: the operator API (any operator)',
        auth: 'public',
        published: false,
        responses: { 200: Type.Object({}, { additionalProperties: true, description: 'An OpenAPI 3.1 document' }) },
        errors: [],
      }),
      'viewer',
    ),
    // The root instance's document (the route is registered in a child scope), built once and cached.
    async () => operatorOpenApiDocument(app),
  );
}
