// The console's Withdrawals and Webhooks pages (DESIGN §18): withdrawals waiting for hot-wallet
// money, pending and failed, with their state; webhook endpoints failing now, with their failures
// and latest error. Read-only: every operator may see them.
import type { OperationsReports } from '../../admin/operations/operations-reports.js';
import type { WithdrawalRow } from '../../admin/operations/operations-repository.js';
import type { ConsoleAnswer, ConsoleRoute } from '../console-route.js';
import { html, type SafeHtml } from '../html.js';
import { money, row, table, when } from './page-parts.js';

export interface OperationsPagesDeps {
  operations: Pick<OperationsReports, 'withdrawals' | 'failingEndpoints'>;
}

function withdrawalTable(caption: string, rows: readonly WithdrawalRow[]): SafeHtml {
  return table(
    caption,
    ['Withdrawal', 'Account', 'Amount', 'Sent on chain', 'Address', 'Status', 'Waiting since', 'Failure', 'Transaction', 'Created'],
    rows.map((w) =>
      row(
        w.id,
        html`<a href="/console/accounts/${w.accountId}">${w.handle}</a>`,
        money(w.grossMinor, w.currency),
        money(w.netMinor, w.currency),
        w.address,
        w.status,
        when(w.waitingSince),
        w.failureCode ?? '—',
        w.txHash ?? '—',
        when(w.createdAt),
      ),
    ),
  );
}

async function withdrawalsPage(deps: OperationsPagesDeps): Promise<ConsoleAnswer> {
  const [waiting, pending, failed] = await Promise.all([
    deps.operations.withdrawals('waiting'),
    deps.operations.withdrawals('pending'),
    deps.operations.withdrawals('failed'),
  ]);
  const body = html` ${withdrawalTable('Waiting for hot-wallet money', waiting)} ${withdrawalTable('Pending', pending)}
  ${withdrawalTable('Failed', failed)}`;
  return { page: { title: 'Withdrawals', nav: 'Withdrawals', body } };
}

async function webhooksPage(deps: OperationsPagesDeps): Promise<ConsoleAnswer> {
  const endpoints = await deps.operations.failingEndpoints();
  const body = html` ${table(
    'Failing webhook endpoints',
    ['Endpoint', 'Account', 'URL', 'Status', 'Failing since', 'Recent failures', 'Last error', 'Last status code', 'Last failed attempt'],
    endpoints.map((w) =>
      row(
        w.id,
        html`<a href="/console/accounts/${w.accountId}">${w.handle}</a>`,
        w.url,
        w.status,
        when(w.failingSince),
        w.recentFailures,
        w.lastError ?? '—',
        w.lastStatusCode ?? '—',
        when(w.lastAttemptAt),
      ),
    ),
    'no endpoint is failing.',
  )}`;
  return { page: { title: 'Failing webhook endpoints', nav: 'Webhooks', body } };
}

export function createOperationsPages(deps: OperationsPagesDeps): ConsoleRoute[] {
  return [
    { method: 'GET', url: '/console/withdrawals', role: 'viewer', handle: () => withdrawalsPage(deps) },
    { method: 'GET', url: '/console/webhooks', role: 'viewer', handle: () => webhooksPage(deps) },
  ];
}
