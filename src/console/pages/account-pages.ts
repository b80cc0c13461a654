// The console's Accounts pages (DESIGN §17, §18): the search and one account, with the actions the
// operator's role allows. Every action goes through the service the operator API calls, so that it
// writes the same audit entry; on success the browser goes to the account page, which lists it.
import type { AccountDirectory } from '../../admin/accounts/account-detail-service.js';
import type { AccountActivity } from '../../admin/accounts/account-activity-repository.js';
import type { AccountFreezes } from '../../compliance/freezes/freezes-service.js';
import type { AccountLimits } from '../../compliance/limits/limits-service.js';
import type { DebtWriteOffs } from '../../fiat/card-risk/debt-write-offs.js';
import type { DepositReleases } from '../../stablecoin/deposits/deposit-release-service.js';
import { AppError } from '../../platform/errors.js';
import type { ConsoleAnswer, ConsoleRequest, ConsoleRoute } from '../console-route.js';
import { html, type SafeHtml } from '../html.js';
import { accountPageBody } from './account-detail-view.js';
import { accountActionRoutes } from './account-actions.js';
import { notFound, refusalNotice, row, table, when } from './page-parts.js';

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

function searchForm(q: string): SafeHtml {
  return html`<form method="get" action="/console/accounts" role="search">
    <label for="account-q">Search</label>
    <input id="account-q" name="q" value="${q}" maxlength="254" placeholder="id, e-mail, handle, phone or deposit address" />
    <button type="submit">Search</button>
  </form>`;
}

async function searchPage(deps: AccountPagesDeps, request: ConsoleRequest): Promise<ConsoleAnswer> {
  const q = (request.query.q ?? '').trim().slice(0, 254);
  const found = q === '' ? null : await deps.directory.search(q);
  const results =
    found === null
      ? html``
      : table(
          `Accounts matching "${q}"`,
          ['Account', 'Handle', 'E-mail', 'Name', 'Created', 'Frozen'],
          found.map((a) =>
            row(html`<a href="/console/accounts/${a.id}">${a.id}</a>`, a.handle, a.email, a.name, when(a.createdAt), a.frozenScope ?? 'no'),
          ),
          'no account found.',
        );
  return {
    page: {
      title: 'Accounts',
      nav: 'Accounts',
      body: html`<h1>Accounts</h1>
        ${searchForm(q)}${results}`,
    },
  };
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
  return { page: { title: `Account ${accountId}`, nav: 'Accounts', body, ...(refusal ? { status: refusal.status } : {}) } };
}

export function createAccountPages(deps: AccountPagesDeps): ConsoleRoute[] {
  return [
    { method: 'GET', url: '/console/accounts', role: 'viewer', handle: (request) => searchPage(deps, request) },
    { method: 'GET', url: '/console/accounts/:id', role: 'viewer', handle: (request) => accountPage(deps, request) },
    ...accountActionRoutes(deps),
  ];
}
