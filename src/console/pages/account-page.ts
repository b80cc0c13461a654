// One account's console page (DESIGN §17, §18), also shown again with the reason when an action
// on it is refused.
import type { AccountDirectory } from '../../admin/accounts/account-detail-service.js';
import type { AccountActivity } from '../../admin/accounts/account-activity-repository.js';
import type { AccountFreezes } from '../../compliance/freezes/freezes-service.js';
import type { AccountLimits } from '../../compliance/limits/limits-service.js';
import type { DebtWriteOffs } from '../../fiat/card-risk/debt-write-offs.js';
import type { DepositReleases } from '../../stablecoin/deposits/deposit-release-service.js';
import { AppError } from '../../platform/errors.js';
import type { ConsoleAnswer, ConsoleRequest } from '../console-route.js';
import { accountPageBody } from './account-detail-view.js';
import { notFound, refusalNotice } from './page-parts.js';

export interface AccountPagesDeps {
  directory: AccountDirectory;
  activity: AccountActivity;
  freezes: AccountFreezes;
  limits: Pick<AccountLimits, 'lines' | 'overrides' | 'setOverride'>;
  releases: DepositReleases;
  writeOffs: DebtWriteOffs;
}

/** An account id as the routes take it (as GET /admin/accounts/{id} does); null otherwise. */
export function accountIdParam(text: string | undefined): number | null {
  return text !== undefined && /^[1-9][0-9]{0,8}$/.test(text) ? Number(text) : null;
}

/** The account page; with a refusal, the page again with its reason and status 400 (or 404). */
export async function accountPage(
  deps: AccountPagesDeps,
  request: ConsoleRequest,
  refusal?: { reason: string; status: number },
): Promise<ConsoleAnswer> {
  const accountId = accountIdParam(request.params.id);
  if (accountId === null) return notFound('Accounts', `No account ${request.params.id ?? ''}.`);
  let detail;
  try {
    detail = await deps.directory.detail(accountId);
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') return notFound('Accounts', `No account ${accountId}.`);
    throw error;
  }
  const [limits, overrides, blockedDeposits, payouts, audit] = await Promise.all([
    deps.limits.lines(accountId),
    deps.limits.overrides(accountId),
    deps.activity.blockedDeposits(accountId),
    deps.activity.payouts(accountId),
    deps.activity.latestAudit(String(accountId)),
  ]);
  const body = accountPageBody(
    request.viewer,
    { detail, limits, overrides, blockedDeposits, payouts, audit },
    refusalNotice(refusal?.reason),
  );
  return {
    page: {
      title: `Account ${accountId}: ${detail.profile.handle}`,
      nav: 'Accounts',
      body,
      ...(refusal ? { status: refusal.status } : {}),
    },
  };
}
