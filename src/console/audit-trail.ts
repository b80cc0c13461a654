// After an action, the console shows the audit entry it wrote (DESIGN §18): the audit log page
// opened at that entry. Page modules of every action use this.
import type { AuditLogReader } from '../compliance/audit/audit-repository.js';
import { MAX_AUDIT_PAGE } from '../compliance/audit/audit-repository.js';
import type { AuditEntryView } from '../compliance/audit/audit-views.js';

/** The newest audit entry about `target` (the one an action just wrote), or null. */
export async function latestAuditEntry(auditLog: AuditLogReader, target: string): Promise<AuditEntryView | null> {
  let latest: AuditEntryView | null = null;
  // Oldest first, a page at a time: an account has few entries, so this is one read in practice.
  for (;;) {
    const page = await auditLog.entries({ target, limit: MAX_AUDIT_PAGE, ...(latest ? { after: BigInt(latest.id) } : {}) });
    if (page.length > 0) latest = page[page.length - 1]!;
    if (page.length < MAX_AUDIT_PAGE) return latest;
  }
}

/** Where an action redirects: the audit log, filtered to the target, starting at the newest entry about it. */
export async function auditEntryUrl(auditLog: AuditLogReader, target: string): Promise<string> {
  const latest = await latestAuditEntry(auditLog, target);
  const params = new URLSearchParams({ target });
  if (latest) params.set('after', String(BigInt(latest.id) - 1n));
  return `/console/audit?${params.toString()}`;
}
