// Operator identities (DESIGN §17): admins make and disable operators; any operator may list them
// (decision 0034). Each write is recorded in the audit log in its transaction. Left out of the
// public OpenAPI document; described in /admin/openapi.json.
import { Type } from 'typebox';
import type { Config } from '../../config.js';
import type { Operators } from '../../compliance/operators/operators-service.js';
import { operatorOf, operatorOnly } from '../plugins/operator-auth.js';
import { Note } from '../schemas/admin-schemas.js';
import {
  CreatedOperatorResponse,
  OperatorIdParams,
  OperatorName,
  OperatorResponse,
  OperatorRoleSchema,
  OperatorsResponse,
} from '../schemas/operator-schemas.js';
import { operation } from '../schemas/operation.js';
import type { App } from '../types.js';

export async function adminOperatorsRoutes(app: App, deps: { config: Pick<Config, 'rateLimits'>; operators: Operators }): Promise<void> {
  const forOperators = operatorOnly(app, deps);
  app.post(
    '/admin/operators',
    forOperators(
      operation({
        operationId: 'createOperator',
        tag: 'service',
        summary: 'Make an operator (admin)',
        description:
          'Answers 201 with the operator, its API token (`po_…`, shown this once: only its hash is kept) and a one-time console enrolment link valid 24 hours. Errors: 409 `already_exists` (the name is taken, whatever its case, or reserved), 400 (a bad name or role, a blank note).',
        auth: 'public',
        published: false,
        readsBody: true,
        body: Type.Object({ name: OperatorName, role: OperatorRoleSchema, note: Note }, { additionalProperties: false }),
        responses: { 201: CreatedOperatorResponse },
        errors: ['operator_forbidden', 'already_exists'],
      }),
      'admin',
    ),
    async (request, reply) => {
      const body = request.body;
      const created = await deps.operators.create(body, operatorOf(request));
      reply.code(201);
      return created;
    },
  );

  app.get(
    '/admin/operators',
    forOperators(
      operation({
        operationId: 'listOperators',
        tag: 'service',
        summary: 'The operators, oldest first, disabled ones included (any operator)',
        auth: 'public',
        published: false,
        responses: { 200: OperatorsResponse },
        errors: [],
      }),
      'viewer',
    ),
    async () => ({ operators: await deps.operators.list() }),
  );

  app.post(
    '/admin/operators/:id/disable',
    forOperators(
      operation({
        operationId: 'disableOperator',
        tag: 'service',
        summary: 'Disable an operator (admin)',
        description:
          'From now on its token answers as an unknown one. An operator already disabled is answered as it is. Errors: 404 `not_found` (no such operator), 400 `invalid_request` (an operator cannot disable itself).',
        auth: 'public',
        published: false,
        readsBody: true,
        params: OperatorIdParams,
        body: Type.Object({ note: Note }, { additionalProperties: false }),
        responses: { 200: OperatorResponse },
        errors: ['operator_forbidden', 'not_found'],
      }),
      'admin',
    ),
    async (request) => {
      const { id } = request.params;
      const { note } = request.body;
      return { operator: await deps.operators.disable({ id, note }, operatorOf(request)) };
    },
  );
}
