// The audit log (DESIGN §17): every operator write and every automatic control is recorded with
// its before and after, in the transaction of the change, so that an entry exists exactly when
// the change committed. The table refuses UPDATE and DELETE (migration 0022).
import type { Trx } from '../../db/transaction.js';

export const AUDIT_ACTIONS = [
  'account.freeze',
  'account.unfreeze',
  'account.limits',
  'transfer.refund',
  'payout.reverse',
  'debt.write_off',
  'deposit.release',
  'operator.create',
  'operator.disable',
  /** The operator's console password and TOTP are cleared and a new enrolment link issued (DESIGN §18). */
  'operator.reset_totp',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who acts, and in which request: what every audited write records. */
export interface Actor {
  /** The operator's name; `env` for OPERATOR_TOKEN, `system` for an automatic control. */
  operator: string;
  requestId: string | null;
}

/** The automatic controls' actor (a sanctions freeze). */
export const SYSTEM_ACTOR: Actor = Object.freeze({ operator: 'system', requestId: null });

export interface AuditRecord {
  by: Actor;
  action: AuditAction;
  /** The id acted on. */
  target: string;
  before: unknown;
  after: unknown;
  note: string;
  at: Date;
}

export async function recordAudit(trx: Trx, record: AuditRecord): Promise<void> {
  await trx
    .insertInto('audit_log')
    .values({
      at: record.at,
      operator: record.by.operator,
      action: record.action,
      target: record.target,
      before: JSON.stringify(record.before ?? null),
      after: JSON.stringify(record.after ?? null),
      note: record.note,
      request_id: record.by.requestId,
    })
    .execute();
}
