// The console's Transfers pages (DESIGN §18): search by id, handle, e-mail, date range, rail and
// status, a bounded page at a time; one transfer with its ledger entries, processor ids, events and
// webhook attempts; and the refund (admin) through the operator API's refund service, so that it
// writes the same audit entry. A refund's success leads back to the transfer, which lists it.
import type { TransferDirectory } from '../../admin/transfers/transfer-directory.js';
import type { TransferFilter } from '../../admin/transfers/transfer-search-repository.js';
import type { AccountActivity } from '../../admin/accounts/account-activity-repository.js';
import type { OperatorRefunds } from '../../fiat/card-risk/operator-refunds.js';
import type { ConsoleAnswer, ConsoleRequest, ConsoleRoute } from '../console-route.js';
import { readActionForm } from '../forms.js';
import { html } from '../html.js';
import { actorOf, attempt, notFound, queryString, refusalNotice } from './page-parts.js';
import { STATUS_CHOICES, transferPageBody, transferRows, transferSearchForm, type TransferQuery } from './transfer-views.js';

export interface TransferPagesDeps {
  transfers: TransferDirectory;
  activity: Pick<AccountActivity, 'latestAudit'>;
  refunds: Pick<OperatorRefunds, 'refund'>;
}

/** Transfers per page, and the last page one may ask for (each page reads page × size rows per rail). */
export const TRANSFERS_PER_PAGE = 50;
export const MAX_TRANSFER_PAGE = 20;

const DAY_MS = 24 * 3600 * 1000;

function dateOf(text: string, label: string): Date | string | undefined {
  if (text === '') return undefined;
  const at = /^\d{4}-\d{2}-\d{2}$/.test(text) ? new Date(`${text}T00:00:00.000Z`) : null;
  return at && !Number.isNaN(at.getTime()) && at.toISOString().startsWith(text) ? at : `${label} must be a date (YYYY-MM-DD).`;
}

/** The filter the query asks for, or the reason it cannot be used. */
async function filterOf(deps: TransferPagesDeps, query: TransferQuery, page: number): Promise<TransferFilter | { refused: string } | null> {
  const from = dateOf(query.from, 'From');
  const to = dateOf(query.to, 'To');
  if (typeof from === 'string') return { refused: from };
  if (typeof to === 'string') return { refused: to };
  if (query.rail !== '' && query.rail !== 'any' && query.rail !== 'fiat' && query.rail !== 'stablecoin')
    return { refused: 'Rail: any, fiat or stablecoin.' };
  if (query.status !== '' && !STATUS_CHOICES.includes(query.status)) return { refused: `Status: one of ${STATUS_CHOICES.join(', ')}.` };
  const filter: TransferFilter = { offset: (page - 1) * TRANSFERS_PER_PAGE, limit: TRANSFERS_PER_PAGE };
  if (from) filter.from = from;
  if (to) filter.to = new Date(to.getTime() + DAY_MS);
  if (query.rail === 'fiat' || query.rail === 'stablecoin') filter.rail = query.rail;
  if (query.status !== '' && query.status !== 'any') filter.status = query.status;
  const q = query.q;
  if (/^(tr|sct)_[A-Za-z0-9_-]{1,60}$/.test(q)) filter.id = q;
  else if (q !== '') {
    const accountId = await deps.transfers.accountOf(q);
    if (accountId === undefined) return null;
    filter.accountId = accountId;
  }
  return filter;
}

async function searchPage(deps: TransferPagesDeps, request: ConsoleRequest): Promise<ConsoleAnswer> {
  const text = (name: string) => (request.query[name] ?? '').trim().slice(0, 254);
  const query: TransferQuery = { q: text('q'), from: text('from'), to: text('to'), rail: text('rail'), status: text('status') };
  const page = Math.min(Math.max(1, Number.parseInt(text('page') || '1', 10) || 1), MAX_TRANSFER_PAGE);
  const filter = await filterOf(deps, query, page);
  const head = html` ${transferSearchForm(query)}`;
  if (filter !== null && 'refused' in filter)
    return { page: { title: 'Transfers', nav: 'Transfers', status: 400, body: html`${head}${refusalNotice(filter.refused)}` } };
  if (filter === null)
    return {
      page: {
        title: 'Transfers',
        nav: 'Transfers',
        body: html`${head}
          <p class="empty">No account has the handle or e-mail "${query.q}".</p>`,
      },
    };
  const { rows, more } = await deps.transfers.search(filter);
  const link = (n: number) => `/console/transfers?${queryString({ ...query, page: String(n) })}`;
  const paging = html`<nav class="paging" aria-label="Pages">
    ${page > 1 ? html`<a href="${link(page - 1)}" rel="prev">Newer</a>` : ''}
    <span>Page ${page}</span>
    ${more && page < MAX_TRANSFER_PAGE ? html`<a href="${link(page + 1)}" rel="next">Older</a>` : ''}
  </nav>`;
  return { page: { title: 'Transfers', nav: 'Transfers', body: html`${head}${transferRows(rows)}${paging}` } };
}

async function transferPage(
  deps: TransferPagesDeps,
  request: ConsoleRequest,
  refusal?: { reason: string; status: number },
): Promise<ConsoleAnswer> {
  const id = (request.params.id ?? '').slice(0, 80);
  const detail = await deps.transfers.detail(id);
  if (!detail) return notFound('Transfers', `No transfer ${id}.`);
  const audit = await deps.activity.latestAudit(id);
  const body = transferPageBody(request.viewer, detail, audit, refusalNotice(refusal?.reason));
  return { page: { title: `Transfer ${id}`, nav: 'Transfers', body, ...(refusal ? { status: refusal.status } : {}) } };
}

/** The refund's amount box: empty for all that is left, else a positive decimal (the service checks it against the transfer). */
function refundAmount(text: string | undefined): number | undefined | { refused: string } {
  const value = (text ?? '').trim();
  if (value === '') return undefined;
  if (!/^[0-9]{1,15}(\.[0-9]{1,6})?$/.test(value))
    return { refused: 'The amount must be a positive decimal number, or empty for all that is left.' };
  return Number(value);
}

async function refund(deps: TransferPagesDeps, request: ConsoleRequest): Promise<ConsoleAnswer> {
  const id = (request.params.id ?? '').slice(0, 80);
  if (!(await deps.transfers.detail(id))) return notFound('Transfers', `No transfer ${id}.`);
  const form = readActionForm(request.form);
  if ('refused' in form) return transferPage(deps, request, { reason: form.refused, status: 400 });
  const amount = refundAmount(request.form.amount);
  if (typeof amount === 'object') return transferPage(deps, request, { reason: amount.refused, status: 400 });
  const reason = request.form.reason;
  if (reason !== 'requested_by_customer' && reason !== 'duplicate' && reason !== 'fraudulent')
    return transferPage(deps, request, { reason: 'Choose a reason.', status: 400 });
  const once = request.form.once ?? '';
  const outcome = await attempt(() =>
    deps.refunds.refund(
      {
        transferId: id,
        amount,
        refundFee: request.form.refundFee === 'yes',
        reason,
        note: form.note,
        idempotencyKey: /^[0-9a-f-]{36}$/.test(once) ? `console:${once}` : null,
      },
      actorOf(request),
    ),
  );
  if ('refused' in outcome) return transferPage(deps, request, { reason: outcome.refused, status: outcome.notFound ? 404 : 400 });
  return { redirect: `/console/transfers/${encodeURIComponent(id)}` };
}

export function createTransferPages(deps: TransferPagesDeps): ConsoleRoute[] {
  return [
    { method: 'GET', url: '/console/transfers', role: 'viewer', handle: (request) => searchPage(deps, request) },
    { method: 'GET', url: '/console/transfers/:id', role: 'viewer', handle: (request) => transferPage(deps, request) },
    { method: 'POST', url: '/console/transfers/:id/refund', role: 'admin', handle: (request) => refund(deps, request) },
  ];
}
