// The operator's freeze and unfreeze (POST /admin/accounts/{id}/freeze and /unfreeze, DESIGN
// §17): each in a transaction of its own around freezeAccount / unfreezeAccount, answering the
// account's freeze as it stands after.
import type { Db } from '../../db/database.js';
import type { Clock } from '../../platform/clock.js';
import type { Actor } from '../audit/audit-log.js';
import { freezeAccount, unfreezeAccount } from './account-freezes.js';
import { readFreeze, type FreezeScope } from './freezes-repository.js';
import { presentFreezeForOperators } from './freeze-views.js';

export interface FreezeAnswer {
  changed: boolean;
  frozen: ReturnType<typeof presentFreezeForOperators>;
}

export interface AccountFreezes {
  freeze(input: { accountId: number; scope: FreezeScope; note: string }, by: Actor): Promise<FreezeAnswer>;
  unfreeze(input: { accountId: number; note: string }, by: Actor): Promise<FreezeAnswer>;
}

export function createAccountFreezes(deps: { db: Db; clock: Clock }): AccountFreezes {
  return {
    async freeze(input, by) {
      return deps.db.transaction().execute(async (trx) => {
        const { changed } = await freezeAccount(trx, { ...input, by, at: deps.clock.now() });
        return { changed, frozen: presentFreezeForOperators(await readFreeze(trx, input.accountId)) };
      });
    },
    async unfreeze(input, by) {
      return deps.db.transaction().execute(async (trx) => {
        const { changed } = await unfreezeAccount(trx, { ...input, by, at: deps.clock.now() });
        return { changed, frozen: presentFreezeForOperators(await readFreeze(trx, input.accountId)) };
      });
    },
  };
}
