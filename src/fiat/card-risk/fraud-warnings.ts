// Early fraud warnings (DESIGN §16): the card network says a charge is likely fraud. The
// recipient's payouts pause (a payouts pause, which the account freeze of DESIGN §17 takes over)
// and an operator review item is opened, once per warning.
import type { Trx } from '../../db/transaction.js';
import { newId } from '../../platform/ids.js';
import { lockTransferByProcessorRef } from '../fiat-transfers-repository.js';

export async function applyEarlyFraudWarning(trx: Trx, input: { warningRef: string; chargeRef: string; now: Date }): Promise<boolean> {
  const transfer = await lockTransferByProcessorRef(trx, input.chargeRef);
  if (!transfer) return false;
  const item = await trx
    .insertInto('review_items')
    .values({
      id: newId('rv'),
      kind: 'early_fraud_warning',
      ref: input.warningRef,
      account_id: transfer.recipientAccountId,
      transfer_id: transfer.id,
      status: 'open',
      created_at: input.now,
    })
    .onConflict((oc) => oc.column('ref').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!item) return false;
  await trx
    .insertInto('payout_pauses')
    .values({ account_id: transfer.recipientAccountId, cause: 'early_fraud_warning', ref: input.warningRef, created_at: input.now })
    .onConflict((oc) => oc.column('ref').doNothing())
    .execute();
  return true;
}
