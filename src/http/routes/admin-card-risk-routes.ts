// The operator's card-risk routes (DESIGN §16): refunds, payout reversals, debt write-offs and
// the reports. Without an operator credential they answer as unknown paths (plugins/operator-auth.ts);
// every write records the operator's action in its transaction. Left out of the public OpenAPI document, as
// the operator API is (DESIGN §17).
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { OperatorRefunds } from '../../fiat/card-risk/operator-refunds.js';
import type { PayoutReversals } from '../../fiat/card-risk/payout-reversals.js';
import type { DebtWriteOffs } from '../../fiat/card-risk/debt-write-offs.js';
import type { createCardRiskReports } from '../../fiat/card-risk/card-risk-reports.js';
import { presentRefund } from '../../fiat/card-risk/card-risk-views.js';
import { StringEnum } from '../schemas/common.js';
import { Currency } from '../schemas/fiat-schemas.js';
import { Note } from '../schemas/admin-schemas.js';
import type { App } from '../types.js';
import { operatorOf, operatorOnly, type OperatorRole } from '../plugins/operator-auth.js';
import { adminOperation, type ForOperators } from './admin-operation.js';
import type { Operators } from '../../compliance/operators/operators-service.js';
import type { Config } from '../../config.js';

export interface AdminCardRiskServices {
  refunds: OperatorRefunds;
  reversals: PayoutReversals;
  writeOffs: DebtWriteOffs;
  reports: ReturnType<typeof createCardRiskReports>;
}

const Amount = Type.Number({ exclusiveMinimum: 0, description: 'Major units; all that is left when absent' });
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const admin = (forOperators: ForOperators, role: OperatorRole, operationId: string, summary: string, extra: Record<string, unknown> = {}) =>
  adminOperation(
    forOperators,
    {
      role,
      operationId,
      summary,
      errors: ['invalid_request', 'invalid_amount', 'not_found', 'idempotency_key_reused', 'processor_unavailable'],
    },
    extra,
  );

const keyOf = (request: FastifyRequest): string | null => {
  const key = request.headers['idempotency-key'];
  return typeof key === 'string' && key.length >= 1 && key.length <= 255 ? key : null;
};

export async function adminCardRiskRoutes(
  app: App,
  services: AdminCardRiskServices,
  deps: { config: Config; operators: Operators },
): Promise<void> {
  const forOperators = operatorOnly(app, deps);
  app.post(
    '/admin/transfers/:id/refund',
    admin(forOperators, 'admin', 'refundTransfer', 'Refund a fiat transfer (operator)', {
      readsBody: true,
      params: IdParams,
      body: Type.Object(
        {
          amount: Type.Optional(Amount),
          refundFee: Type.Optional(Type.Boolean()),
          reason: StringEnum(['requested_by_customer', 'duplicate', 'fraudulent']),
          note: Note,
        },
        { additionalProperties: false },
      ),
    }),
    async (request, reply) => {
      const by = operatorOf(request);
      const { id } = request.params as { id: string };
      const body = request.body as {
        amount?: number;
        refundFee?: boolean;
        reason: 'requested_by_customer' | 'duplicate' | 'fraudulent';
        note: string;
      };
      const { refund, replayed } = await services.refunds.refund({ transferId: id, ...body, idempotencyKey: keyOf(request) }, by);
      if (replayed) reply.header('Idempotent-Replayed', 'true');
      return { refund: presentRefund(refund) };
    },
  );

  app.post(
    '/admin/payouts/:id/reverse',
    admin(forOperators, 'admin', 'reversePayout', 'Reverse a paid payout (operator)', {
      readsBody: true,
      params: IdParams,
      body: Type.Object({ amount: Type.Optional(Amount), note: Note }, { additionalProperties: false }),
    }),
    async (request, reply) => {
      const by = operatorOf(request);
      const { id } = request.params as { id: string };
      const body = request.body as { amount?: number; note: string };
      const { reversal, replayed } = await services.reversals.reverse({ payoutId: id, ...body, idempotencyKey: keyOf(request) }, by);
      if (replayed) reply.header('Idempotent-Replayed', 'true');
      return { reversal };
    },
  );

  app.post(
    '/admin/accounts/:id/write-off',
    admin(forOperators, 'admin', 'writeOffDebt', 'Write off what an account owes in one currency (operator)', {
      readsBody: true,
      params: Type.Object({ id: Type.String({ pattern: '^[1-9][0-9]{0,8}$', description: 'The account id' }) }),
      body: Type.Object({ currency: Currency, note: Note }, { additionalProperties: false }),
    }),
    async (request) => {
      const by = operatorOf(request);
      const { id } = request.params as { id: string };
      const body = request.body as { currency: 'USD' | 'EUR' | 'GBP' | 'JPY'; note: string };
      return { writeOff: await services.writeOffs.writeOff({ accountId: Number(id), ...body }, by) };
    },
  );

  reportRoutes(app, services, forOperators);
}

function reportRoutes(app: App, services: AdminCardRiskServices, forOperators: ForOperators): void {
  app.get(
    '/admin/disputes',
    admin(forOperators, 'viewer', 'listDisputes', 'Disputes, newest first (operator)', {
      querystring: Type.Object({ status: Type.Optional(StringEnum(['open', 'won', 'lost'])) }, { additionalProperties: false }),
    }),
    async (request) => {
      const { status } = request.query as { status?: 'open' | 'won' | 'lost' };
      return { disputes: await services.reports.disputes(status) };
    },
  );
  app.get('/admin/refunds', admin(forOperators, 'viewer', 'listRefunds', 'Refunds, newest first (operator)'), async () => {
    return { refunds: await services.reports.refunds() };
  });
  app.get('/admin/losses', admin(forOperators, 'viewer', 'listLosses', 'Card-risk losses per currency (operator)'), async () => {
    return { losses: await services.reports.losses() };
  });
}
