// The console's Disputes page (DESIGN §16, §18): open and closed disputes, refunds, debts and the
// losses per currency, with the admin's write-off and payout reversal, each through the service the
// operator API calls (the same audit entry). A reversal leads to the audit log of the payout.
import type { OperationsReports } from '../../admin/operations/operations-reports.js';
import type { createCardRiskReports } from '../../fiat/card-risk/card-risk-reports.js';
import type { PayoutReversals } from '../../fiat/card-risk/payout-reversals.js';
import { roleAllows } from '../../compliance/operators/operator-roles.js';
import type { ConsoleAnswer, ConsoleRequest, ConsoleRoute, ConsoleViewer } from '../console-route.js';
import { readActionForm } from '../forms.js';
import { html, type SafeHtml } from '../html.js';
import { payoutReverseForm, writeOffForm } from './account-forms.js';
import { actorOf, attempt, money, refusalNotice, row, table, when } from './page-parts.js';

export interface DisputePagesDeps {
  reports: Pick<ReturnType<typeof createCardRiskReports>, 'disputes' | 'refunds' | 'losses'>;
  operations: Pick<OperationsReports, 'debts' | 'paidPayouts'>;
  reversals: PayoutReversals;
}

const transferLink = (id: string) => html`<a href="/console/transfers/${id}">${id}</a>`;

async function cardRiskTables(deps: DisputePagesDeps): Promise<SafeHtml> {
  const [disputes, refunds, losses] = await Promise.all([deps.reports.disputes(), deps.reports.refunds(), deps.reports.losses()]);
  const disputeRows = (open: boolean) =>
    disputes
      .filter((d) => (d.status === 'open') === open)
      .map((d) =>
        row(
          d.id,
          transferLink(d.transferId),
          `${d.amount} ${d.currency}`,
          `${d.takenBack} ${d.currency}`,
          `${d.disputeFee} ${d.currency}`,
          d.reason,
          d.status,
          when(new Date(d.openedAt)),
          when(d.closedAt === null ? null : new Date(d.closedAt)),
        ),
      );
  const disputeHeaders = ['Dispute', 'Transfer', 'Amount', 'Taken back', 'Dispute fee', 'Reason', 'Status', 'Opened', 'Closed'];
  return html`${table('Open disputes', disputeHeaders, disputeRows(true))} ${table('Closed disputes', disputeHeaders, disputeRows(false))}
  ${table(
    'Refunds',
    ['Refund', 'Transfer', 'Amount', 'Fee given back', 'Status', 'Reason', 'Origin', 'Created'],
    refunds.map((r) =>
      row(
        r.id,
        transferLink(r.transferId),
        `${r.amount} ${r.currency}`,
        `${r.fee} ${r.currency}`,
        r.status,
        r.reason,
        r.origin,
        when(new Date(r.createdAt)),
      ),
    ),
  )}
  ${table(
    'Losses',
    ['Currency', 'Dispute fees', 'Fees given back', 'Debts written off', 'Total'],
    losses.map((l) => row(l.currency, l.disputeFees, l.feesGivenBack, l.writtenOff, l.total)),
  )}`;
}

async function debtAndPayoutTables(deps: DisputePagesDeps, viewer: ConsoleViewer): Promise<SafeHtml> {
  const [debts, payouts] = await Promise.all([deps.operations.debts(), deps.operations.paidPayouts()]);
  const admin = roleAllows(viewer.role, 'admin');
  const action = admin ? ['Action'] : [];
  return html`${table(
    'Debts',
    ['Account', 'Owed', ...action],
    debts.map((d) =>
      row(
        html`<a href="/console/accounts/${d.accountId}">${d.accountId}</a>`,
        money(d.owedMinor, d.currency),
        ...(admin ? [writeOffForm(viewer, d.accountId, d.currency, d.owedMinor)] : []),
      ),
    ),
  )}
  ${table(
    'Paid payouts',
    ['Payout', 'Account', 'Amount', 'Processor id', 'Created', ...action],
    payouts.map((p) =>
      row(
        p.id,
        html`<a href="/console/accounts/${p.accountId}">${p.handle}</a>`,
        money(p.amountMinor, p.currency),
        p.processorRef ?? '—',
        when(p.createdAt),
        ...(admin ? [payoutReverseForm(viewer, p)] : []),
      ),
    ),
  )}`;
}

async function disputesPage(
  deps: DisputePagesDeps,
  request: ConsoleRequest,
  refusal?: { reason: string; status: number },
): Promise<ConsoleAnswer> {
  const body = html` ${refusalNotice(refusal?.reason)} ${await cardRiskTables(deps)} ${await debtAndPayoutTables(deps, request.viewer)}`;
  return { page: { title: 'Disputes, refunds and losses', nav: 'Disputes', body, ...(refusal ? { status: refusal.status } : {}) } };
}

async function reverse(deps: DisputePagesDeps, request: ConsoleRequest): Promise<ConsoleAnswer> {
  const payoutId = (request.params.id ?? '').slice(0, 64);
  const form = readActionForm(request.form);
  if ('refused' in form) return disputesPage(deps, request, { reason: form.refused, status: 400 });
  const text = (request.form.amount ?? '').trim();
  if (text !== '' && !/^[0-9]{1,15}(\.[0-9]{1,6})?$/.test(text))
    return disputesPage(deps, request, {
      reason: 'The amount must be a positive decimal number, or empty for all that is left.',
      status: 400,
    });
  const once = request.form.once ?? '';
  const outcome = await attempt(() =>
    deps.reversals.reverse(
      {
        payoutId,
        ...(text === '' ? {} : { amount: Number(text) }),
        note: form.note,
        idempotencyKey: /^[0-9a-f-]{36}$/.test(once) ? `console:${once}` : null,
      },
      actorOf(request),
    ),
  );
  if ('refused' in outcome) return disputesPage(deps, request, { reason: outcome.refused, status: outcome.notFound ? 404 : 400 });
  // The reversal's audit entry names the payout.
  return { redirect: `/console/audit?target=${encodeURIComponent(payoutId)}` };
}

export function createDisputePages(deps: DisputePagesDeps): ConsoleRoute[] {
  return [
    { method: 'GET', url: '/console/disputes', role: 'viewer', handle: (request) => disputesPage(deps, request) },
    { method: 'POST', url: '/console/payouts/:id/reverse', role: 'admin', handle: (request) => reverse(deps, request) },
  ];
}
