// The operator's blocked-deposit route (DESIGN §17): a deposit from a sanctioned sender is credited
// to nobody until an operator (support role or above) releases it. Without an operator credential
// it answers as an unknown path (plugins/operator-auth.ts); left out of the public OpenAPI document.
import { Type } from 'typebox';
import type { DepositReleases } from '../../stablecoin/deposits/deposit-release-service.js';
import { presentBlockedDeposit } from '../../stablecoin/deposits/blocked-deposit-view.js';
import { operation } from '../schemas/operation.js';
import { operatorOf, operatorOnly, type OperatorGateDeps } from '../plugins/operator-auth.js';
import type { App } from '../types.js';

const ReleaseResponse = Type.Object(
  {
    deposit: Type.Object({}, { additionalProperties: true, description: 'The deposit, `released`' }),
    changed: Type.Boolean({ description: 'false when it had been released before: nothing was credited again' }),
  },
  { additionalProperties: false },
);

export async function adminDepositsRoutes(app: App, releases: DepositReleases, deps: OperatorGateDeps): Promise<void> {
  const forOperators = operatorOnly(app, deps);
  app.post(
    '/admin/deposits/:id/release',
    forOperators(
      operation({
        operationId: 'releaseDeposit',
        tag: 'service',
        summary: 'Credit a deposit blocked by sanctions screening to its account, once (operator)',
        auth: 'public',
        published: false,
        readsBody: true,
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
        body: Type.Object(
          { note: Type.String({ minLength: 1, maxLength: 1000, description: 'Why: kept in the audit log' }) },
          { additionalProperties: false },
        ),
        responses: { 200: ReleaseResponse },
        errors: ['invalid_request', 'not_found', 'operator_forbidden'],
      }),
      'support',
    ),
    async (request) => {
      const { id } = request.params;
      const { note } = request.body;
      const { deposit, changed } = await releases.release({ depositId: id, note }, operatorOf(request));
      return { deposit: presentBlockedDeposit(deposit), changed };
    },
  );
}
