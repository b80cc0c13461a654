// Ends holds on card money (DESIGN §16): each due hold's remaining money moves from `held` to
// `available` once (or repays what the user owes), with the event `funds.released`, in one
// transaction per hold.
import type { Db } from '../../db/database.js';
import { recordEvent } from '../../events/record-event.js';
import { applyOperation } from '../../ledger/ledger.js';
import { userAvailable, userHeld } from '../../ledger/ledger-accounts.js';
import { formatMinor } from '../../money/amount.js';
import type { Clock } from '../../platform/clock.js';
import { dueHolds, markReleased, type Hold } from './holds-repository.js';
import { repayFromAvailable } from './take-back.js';
import { lockUser } from './user-money.js';

export interface HoldRelease {
  /** Releases up to `limit` due holds; returns how many it looked at. */
  releaseDue(limit: number): Promise<number>;
}

export function createHoldRelease(deps: { db: Db; clock: Clock }): HoldRelease {
  async function release(hold: Hold): Promise<void> {
    const now = deps.clock.now();
    await deps.db.transaction().execute(async (trx) => {
      await lockUser(trx, hold.accountId);
      const remaining = await markReleased(trx, hold.id, now);
      if (remaining === null) return; // another worker released it
      const operationId = `hold:${hold.id}:release`;
      if (remaining > 0n) {
        await applyOperation(trx, {
          operationId,
          transfers: [
            {
              type: 'posted',
              debit: userHeld(hold.accountId, hold.currency),
              credit: userAvailable(hold.accountId, hold.currency),
              amountMinor: remaining,
              code: 'hold_released',
            },
          ],
        });
        await repayFromAvailable(trx, { accountId: hold.accountId, currency: hold.currency, amountMinor: remaining, operationId });
      }
      await recordEvent(trx, {
        accountId: hold.accountId,
        type: 'funds.released',
        subjectId: hold.id,
        data: {
          id: hold.id,
          transferId: hold.transferId,
          currency: hold.currency,
          amount: formatMinor(remaining, hold.currency),
          releasedAt: now.toISOString(),
        },
        now,
      });
    });
  }
  return {
    async releaseDue(limit) {
      const due = await dueHolds(deps.db, { now: deps.clock.now(), limit });
      for (const hold of due) await release(hold);
      return due.length;
    },
  };
}
