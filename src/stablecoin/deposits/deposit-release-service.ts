// An operator's decision on a blocked deposit (DESIGN §17): POST /admin/deposits/{id}/release
// credits it to the account it was sent to. Once: the deposit's row is locked and marked
// `released` in the transaction that credits it and writes its audit entry (`deposit.release`) and
// its `deposit.credited` event, so a second release, also a concurrent one, finds it released and
// changes nothing (`changed: false`, no second audit entry). Releasing does not unfreeze the
// account: that is the operator's separate decision (POST /admin/accounts/{id}/unfreeze).
import type { Db } from '../../db/database.js';
import type { Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import { recordAudit, type Actor } from '../../compliance/audit/audit-log.js';
import { creditReleasedDeposit } from './deposit-ledger.js';
import { lockDeposit, markReleased, type BlockedDeposit } from './deposits-repository.js';
import { recordDepositEvent } from '../stablecoin-events.js';
import { presentBlockedDeposit } from './blocked-deposit-view.js';

export interface DepositReleases {
  release(input: { depositId: string; note: string }, by: Actor): Promise<{ deposit: BlockedDeposit; changed: boolean }>;
}

export function createDepositReleases(deps: { db: Db; clock: Clock }): DepositReleases {
  return {
    async release(input, by) {
      if (input.note.trim() === '') throw new AppError('invalid_request', 'A note is required: say why the deposit is released.');
      return deps.db.transaction().execute(async (trx) => {
        const deposit = await lockDeposit(trx, input.depositId);
        if (!deposit) throw new AppError('not_found', `No deposit ${input.depositId.slice(0, 64)}.`);
        if (deposit.status === 'released') return { deposit, changed: false };
        if (deposit.status !== 'blocked') {
          throw new AppError('invalid_request', `Deposit ${deposit.id} was not blocked: it was credited when it arrived.`);
        }
        const at = deps.clock.now();
        const marked = await markReleased(trx, { id: deposit.id, at });
        if (!marked) throw new Error(`the locked blocked deposit ${deposit.id} could not be marked released`);
        const released: BlockedDeposit = { ...deposit, status: 'released', releasedAt: at };
        await creditReleasedDeposit(trx, deposit);
        await recordAudit(trx, {
          by,
          action: 'deposit.release',
          target: deposit.id,
          before: presentBlockedDeposit(deposit),
          after: presentBlockedDeposit(released),
          note: input.note,
          at,
        });
        await recordDepositEvent(trx, { ...deposit, creditedAt: at });
        return { deposit: released, changed: true };
      });
    },
  };
}
