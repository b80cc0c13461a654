// GET /admin/audit (DESIGN §17): the audit log, oldest first, for any operator. Left out of the
// public OpenAPI document; described in /admin/openapi.json.
import type { Config } from '../../config.js';
import { DEFAULT_AUDIT_PAGE, type AuditLogReader } from '../../compliance/audit/audit-repository.js';
import type { Operators } from '../../compliance/operators/operators-service.js';
import { operatorOnly } from '../plugins/operator-auth.js';
import { AuditQuery, AuditResponse } from '../schemas/operator-schemas.js';
import { operation } from '../schemas/operation.js';
import type { App } from '../types.js';

export async function adminAuditRoutes(
  app: App,
  deps: { config: Pick<Config, 'rateLimits'>; operators: Pick<Operators, 'authenticate'>; auditLog: AuditLogReader },
): Promise<void> {
  const forOperators = operatorOnly(app, deps);
  app.get(
    '/admin/audit',
    forOperators(
      operation({
        operationId: 'listAuditEntries',
        tag: 'service',
        summary: 'The audit log, oldest first (any operator)',
        description:
          "Every operator write and every automatic control, with its before and after. Pass the last entry's `id` as `after` to read on; filter by `operator` (a name, `env` or `system`) and `target` (the id acted on).",
        auth: 'public',
        published: false,
        querystring: AuditQuery,
        responses: { 200: AuditResponse },
        errors: [],
      }),
      'viewer',
    ),
    async (request) => {
      const query = request.query;
      const entries = await deps.auditLog.entries({
        ...(query.after === undefined ? {} : { after: BigInt(query.after) }),
        limit: query.limit === undefined ? DEFAULT_AUDIT_PAGE : Number(query.limit),
        ...(query.operator === undefined ? {} : { operator: query.operator }),
        ...(query.target === undefined ? {} : { target: query.target }),
      });
      return { entries };
    },
  );
}
