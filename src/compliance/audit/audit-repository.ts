// Reading the audit log (DESIGN §17): oldest first, after an entry id, by operator or target.
import type { Db } from '../../db/database.js';
import { findByName } from '../operators/operators-repository.js';
import { RESERVED_OPERATOR_NAMES } from '../operators/operator-roles.js';
import { presentAuditEntry, type AuditEntryView } from './audit-views.js';

export const DEFAULT_AUDIT_PAGE = 50;
export const MAX_AUDIT_PAGE = 200;

export interface AuditQuery {
  /** The id of the last entry seen: the entries after it. */
  after?: bigint;
  /** 1 to MAX_AUDIT_PAGE. */
  limit: number;
  /** An operator's name, in any case. */
  operator?: string;
  target?: string;
}

export interface AuditLogReader {
  entries(query: AuditQuery): Promise<AuditEntryView[]>;
}

export function createAuditLogReader(deps: { db: Db }): AuditLogReader {
  return {
    async entries(query) {
      const limit = Math.min(Math.max(1, query.limit), MAX_AUDIT_PAGE);
      const operator = query.operator === undefined ? undefined : await recordedName(deps.db, query.operator);
      let select = deps.db.selectFrom('audit_log').selectAll();
      if (query.after !== undefined) select = select.where('id', '>', query.after);
      if (operator !== undefined) select = select.where('operator', '=', operator);
      if (query.target !== undefined) select = select.where('target', '=', query.target);
      const rows = await select.orderBy('id').limit(limit).execute();
      return rows.map(presentAuditEntry);
    },
  };
}

/**
 * The name as entries record it: operator names are unique whatever their case, so `alice` finds
 * Alice's entries; `env` and `system` are recorded in lower case.
 */
async function recordedName(db: Db, name: string): Promise<string> {
  if (RESERVED_OPERATOR_NAMES.includes(name.toLowerCase())) return name.toLowerCase();
  return (await findByName(db, name))?.name ?? name;
}
