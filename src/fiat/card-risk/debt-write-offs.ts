// POST /admin/accounts/{id}/write-off (DESIGN §16, §17 debt.write_off): an operator gives up on
// what a user owes in one currency; it moves from the user's receivable to the platform's losses.
import type { Db } from '../../db/database.js';
import { applyOperation } from '../../ledger/ledger.js';
import { platformAccount, receivableOf } from '../../ledger/ledger-accounts.js';
import { formatMinor } from '../../money/amount.js';
import type { FiatCurrency } from '../../money/assets.js';
import type { Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import { recordAudit, type Actor } from '../../compliance/audit/audit-log.js';
import { lockUser, userMoney } from './user-money.js';

export interface DebtWriteOffs {
  writeOff(
    input: { accountId: number; currency: FiatCurrency; note: string },
    by: Actor,
  ): Promise<{ accountId: number; currency: FiatCurrency; amount: string }>;
}

export function createDebtWriteOffs(deps: { db: Db; clock: Clock }): DebtWriteOffs {
  return {
    async writeOff(input, by) {
      return deps.db.transaction().execute(async (trx) => {
        const account = await trx.selectFrom('accounts').select('id').where('id', '=', input.accountId).executeTakeFirst();
        if (!account) throw new AppError('not_found', `No account ${input.accountId}.`);
        await lockUser(trx, input.accountId);
        const { owedMinor } = await userMoney(trx, input.accountId, input.currency);
        if (owedMinor === 0n) throw new AppError('invalid_request', `Account ${input.accountId} owes nothing in ${input.currency}.`);
        const now = deps.clock.now();
        await applyOperation(trx, {
          operationId: `write-off:${input.accountId}:${input.currency}:${now.getTime()}`,
          transfers: [
            {
              type: 'posted',
              debit: platformAccount('losses', input.currency),
              credit: receivableOf(input.accountId, input.currency),
              amountMinor: owedMinor,
              code: 'debt_write_off',
            },
          ],
        });
        const amount = formatMinor(owedMinor, input.currency);
        await recordAudit(trx, {
          by,
          action: 'debt.write_off',
          target: String(input.accountId),
          before: { currency: input.currency, owed: amount },
          after: { currency: input.currency, owed: formatMinor(0n, input.currency) },
          note: input.note,
          at: now,
        });
        return { accountId: input.accountId, currency: input.currency, amount };
      });
    },
  };
}
