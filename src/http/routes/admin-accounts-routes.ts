// The operator's accounts routes (DESIGN §17): search and detail (viewer), freeze and unfreeze
// (support). Without an operator credential they answer as unknown paths (plugins/operator-auth.ts);
// each freeze or unfreeze that changes something records its audit entry in its transaction. Left
// out of the public OpenAPI document, as the operator API is.
import { Type } from 'typebox';
import type { AccountDirectory } from '../../admin/accounts/account-detail-service.js';
import { presentAccountDetail, presentAccountSummary } from '../../admin/accounts/account-views.js';
import type { AccountFreezes } from '../../compliance/freezes/freezes-service.js';
import { operatorOf, operatorOnly, type OperatorGateDeps, type OperatorRole } from '../plugins/operator-auth.js';
import { Note } from '../schemas/admin-schemas.js';
import { adminOperation, type ForOperators } from './admin-operation.js';
import { StringEnum } from '../schemas/common.js';
import type { App } from '../types.js';

export interface AdminAccountsServices {
  directory: AccountDirectory;
  freezes: AccountFreezes;
}

const IdParams = Type.Object({ id: Type.String({ pattern: '^[1-9][0-9]{0,8}$', description: 'The account id' }) });

const admin = (forOperators: ForOperators, role: OperatorRole, operationId: string, summary: string, extra: Record<string, unknown> = {}) =>
  adminOperation(forOperators, { role, operationId, summary, errors: ['invalid_request', 'not_found'] }, extra);

export async function adminAccountsRoutes(app: App, services: AdminAccountsServices, deps: OperatorGateDeps): Promise<void> {
  const forOperators = operatorOnly(app, deps);
  app.get(
    '/admin/accounts',
    admin(forOperators, 'viewer', 'searchAccounts', 'Accounts by id, e-mail, handle, phone or deposit address (operator)', {
      querystring: Type.Object({ q: Type.String({ minLength: 1, maxLength: 254, pattern: '\\S' }) }, { additionalProperties: false }),
    }),
    async (request) => {
      const { q } = request.query as { q: string };
      return { accounts: (await services.directory.search(q.trim())).map(presentAccountSummary) };
    },
  );

  app.get(
    '/admin/accounts/:id',
    admin(forOperators, 'viewer', 'getAccountDetail', 'One account as an operator sees it (operator)', { params: IdParams }),
    async (request) => {
      const { id } = request.params as { id: string };
      return { account: presentAccountDetail(await services.directory.detail(Number(id))) };
    },
  );

  app.post(
    '/admin/accounts/:id/freeze',
    admin(forOperators, 'support', 'freezeAccount', 'Freeze an account: all outgoing money, or payouts only (operator)', {
      readsBody: true,
      params: IdParams,
      body: Type.Object({ note: Note, scope: StringEnum(['all', 'payouts']) }, { additionalProperties: false }),
    }),
    async (request) => {
      const { id } = request.params as { id: string };
      const body = request.body as { note: string; scope: 'all' | 'payouts' };
      const { changed, frozen } = await services.freezes.freeze({ accountId: Number(id), ...body }, operatorOf(request));
      return { account: { id, frozen }, changed };
    },
  );

  app.post(
    '/admin/accounts/:id/unfreeze',
    admin(forOperators, 'support', 'unfreezeAccount', 'Unfreeze an account (operator)', {
      readsBody: true,
      params: IdParams,
      body: Type.Object({ note: Note }, { additionalProperties: false }),
    }),
    async (request) => {
      const { id } = request.params as { id: string };
      const { note } = request.body as { note: string };
      const { changed, frozen } = await services.freezes.unfreeze({ accountId: Number(id), note }, operatorOf(request));
      return { account: { id, frozen }, changed };
    },
  );
}
