// Processor webhook events already applied, by the processor's event id.
import type { Trx } from '../db/transaction.js';

/** Records the event in this transaction; false when it was recorded before (a repeated delivery). */
export async function recordProcessorEvent(trx: Trx, input: { id: string; type: string; now: Date }): Promise<boolean> {
  const row = await trx
    .insertInto('processor_events')
    .values({ id: input.id, type: input.type, received_at: input.now })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
