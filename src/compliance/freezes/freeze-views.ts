// A freeze as the API shows it: to the account in its account.frozen / account.unfrozen events
// (DESIGN §13, §17), and to operators in the account detail. The note and the operator stay with
// the operators (the audit log); the account is told what is stopped and since when.
import type { Freeze } from './freezes-repository.js';

// A type, not an interface: event data is a plain record.
export type FreezeView = {
  /** frz_…: this freeze; its account.frozen and account.unfrozen events name it. */
  id: string;
  scope: 'all' | 'payouts';
  since: string;
};

/** The data of account.frozen. */
export function presentFreeze(freeze: Freeze): FreezeView {
  return { id: freeze.id, scope: freeze.scope, since: freeze.since.toISOString() };
}

/** The data of account.unfrozen: the freeze that ended, and when. */
export function presentUnfreeze(freeze: Freeze, at: Date): FreezeView & { until: string } {
  return { ...presentFreeze(freeze), until: at.toISOString() };
}

/** The freeze as operators see it (GET /admin/accounts…): who froze the account besides. */
export function presentFreezeForOperators(freeze: Freeze | null): (FreezeView & { by: string }) | null {
  return freeze === null ? null : { ...presentFreeze(freeze), by: freeze.by };
}
