// An audit entry as GET /admin/audit answers it (DESIGN §17). The id is a string: it is the cursor
// (`after`), and a bigint.
import type { Selectable } from 'kysely';
import type { AuditLogTable } from '../../db/schema.js';

export function presentAuditEntry(row: Selectable<AuditLogTable>) {
  return {
    id: String(row.id),
    at: row.at.toISOString(),
    operator: row.operator,
    action: row.action,
    target: row.target,
    before: row.before ?? null,
    after: row.after ?? null,
    note: row.note,
    requestId: row.request_id,
  };
}

export type AuditEntryView = ReturnType<typeof presentAuditEntry>;
