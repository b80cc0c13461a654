// Every operator write is recorded with its before and after, in the transaction of the change,
// shaped as the audit log (DESIGN §17) that takes these rows over.
import type { Trx } from '../../ledger/ledger.js';

export type OperatorAction = 'transfer.refund' | 'payout.reverse' | 'debt.write_off';

export interface OperatorActionRecord {
  /** The operator's name; `env` for OPERATOR_TOKEN. */
  operator: string;
  action: OperatorAction;
  /** The id acted on. */
  target: string;
  before: unknown;
  after: unknown;
  note: string;
  requestId: string | null;
  at: Date;
}

export async function recordOperatorAction(trx: Trx, record: OperatorActionRecord): Promise<void> {
  await trx
    .insertInto('operator_actions')
    .values({
      at: record.at,
      operator: record.operator,
      action: record.action,
      target: record.target,
      before: JSON.stringify(record.before ?? null),
      after: JSON.stringify(record.after ?? null),
      note: record.note,
      request_id: record.requestId,
    })
    .execute();
}

/** Who acts, and in which request: what every operator write records. */
export interface OperatorContext {
  operator: string;
  requestId: string | null;
}
