// What the console's account page shows beside GET /admin/accounts/{id}'s detail (DESIGN §18):
// the account's blocked deposits (an operator may release them), its paid payouts (an admin may
// reverse one) and the latest audit entries about it, so that an action's entry is seen at once.
// Every list is bounded and read on an index of its own.
import type { Db } from '../../db/database.js';
import type { FiatCurrency, Token } from '../../money/assets.js';
import { presentAuditEntry, type AuditEntryView } from '../../compliance/audit/audit-views.js';

/** At most this many of each list. */
export const MAX_ACTIVITY_ITEMS = 20;

export interface BlockedDepositRow {
  id: string;
  token: Token;
  amountMinor: bigint;
  from: string;
  txHash: string;
  recordedAt: Date;
}

export async function blockedDepositsOf(db: Db, accountId: number): Promise<BlockedDepositRow[]> {
  const rows = await db
    .selectFrom('chain_deposits')
    .select(['id', 'token', 'amount', 'from_address', 'tx_hash', 'credited_at'])
    .where('account_id', '=', accountId)
    .where('status', '=', 'blocked')
    .orderBy('credited_at', 'desc')
    .limit(MAX_ACTIVITY_ITEMS)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    token: r.token,
    amountMinor: BigInt(r.amount),
    from: r.from_address,
    txHash: r.tx_hash,
    recordedAt: new Date(r.credited_at),
  }));
}

export interface PayoutRow {
  id: string;
  currency: FiatCurrency;
  amountMinor: bigint;
  status: string;
  processorRef: string | null;
  createdAt: Date;
}

export async function recentPayoutsOf(db: Db, accountId: number): Promise<PayoutRow[]> {
  const rows = await db
    .selectFrom('payouts')
    .select(['id', 'currency', 'amount', 'status', 'processor_ref', 'created_at'])
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .limit(MAX_ACTIVITY_ITEMS)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    currency: r.currency as FiatCurrency,
    amountMinor: r.amount,
    status: r.status,
    processorRef: r.processor_ref,
    createdAt: r.created_at,
  }));
}

/** The latest audit entries about `target`, newest first (on the log's (target, id) index). */
export async function latestAuditOf(db: Db, target: string, limit = MAX_ACTIVITY_ITEMS): Promise<AuditEntryView[]> {
  const rows = await db.selectFrom('audit_log').selectAll().where('target', '=', target).orderBy('id', 'desc').limit(limit).execute();
  return rows.map(presentAuditEntry);
}

export interface AccountActivity {
  blockedDeposits(accountId: number): Promise<BlockedDepositRow[]>;
  payouts(accountId: number): Promise<PayoutRow[]>;
  /** The latest audit entries about a target (an account id, a transfer id), newest first. */
  latestAudit(target: string): Promise<AuditEntryView[]>;
}

export function createAccountActivity(deps: { db: Db }): AccountActivity {
  return {
    blockedDeposits: (accountId) => blockedDepositsOf(deps.db, accountId),
    payouts: (accountId) => recentPayoutsOf(deps.db, accountId),
    latestAudit: (target) => latestAuditOf(deps.db, target),
  };
}
