// SQL for users' default withdrawal addresses.
import type { Db } from '../db/database.js';
import type { Trx } from '../db/transaction.js';

export async function findWithdrawalAddress(db: Db | Trx, accountId: number): Promise<string | null> {
  const row = await db.selectFrom('withdrawal_addresses').select('address').where('account_id', '=', accountId).executeTakeFirst();
  return row?.address ?? null;
}

/** Sets the address, replacing any earlier one. */
export async function upsertWithdrawalAddress(db: Db | Trx, input: { accountId: number; address: string; at: Date }): Promise<void> {
  await db
    .insertInto('withdrawal_addresses')
    .values({ account_id: input.accountId, address: input.address, updated_at: input.at })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ address: input.address, updated_at: input.at }))
    .execute();
}
