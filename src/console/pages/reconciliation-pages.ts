// Reconciliation (DESIGN §18): /console/reconciliation?from=YYYY-MM-DD&to=YYYY-MM-DD shows, per day
// and currency, the processor's balance transactions against the ledger's processor clearing, per
// token chain custody against the books, and every difference line by line;
// /console/reconciliation.csv answers the same lines as a download.
import type { ConsoleAnswer, ConsoleRequest, ConsoleRoute } from '../console-route.js';
import { html, raw, type SafeHtml } from '../html.js';
import { formatMinor } from '../../money/amount.js';
import type { Clock } from '../../platform/clock.js';
import type { ReconciliationLine, ReconciliationReport } from '../../operations/reconciliation/reconciliation-lines.js';
import { reconciliationCsv } from '../../operations/reconciliation/reconciliation-csv.js';
import {
  ReconciliationRangeError,
  MAX_RECONCILIATION_DAYS,
  type Reconciliation,
} from '../../operations/reconciliation/reconciliation-service.js';

export interface ReconciliationPagesDeps {
  reconciliation: Reconciliation;
  clock: Clock;
}

export function createReconciliationPages(deps: ReconciliationPagesDeps): ConsoleRoute[] {
  const rangeOf = (request: ConsoleRequest) => {
    const today = deps.clock.now().toISOString().slice(0, 10);
    return { from: request.query.from || today, to: request.query.to || request.query.from || today };
  };
  return [
    {
      method: 'GET',
      url: '/console/reconciliation',
      role: 'viewer',
      async handle(request): Promise<ConsoleAnswer> {
        const range = rangeOf(request);
        try {
          const report = await deps.reconciliation.report(range);
          return { page: { title: 'Reconciliation', nav: 'Reconciliation', body: reportBody(report) } };
        } catch (error) {
          if (!(error instanceof ReconciliationRangeError)) throw error;
          return { page: { title: 'Reconciliation', nav: 'Reconciliation', status: 400, body: rangeForm(range, error.message) } };
        }
      },
    },
    {
      method: 'GET',
      url: '/console/reconciliation.csv',
      role: 'viewer',
      async handle(request): Promise<ConsoleAnswer> {
        const range = rangeOf(request);
        try {
          const report = await deps.reconciliation.report(range);
          return { csv: { filename: `peerpay-reconciliation-${report.from}-${report.to}.csv`, body: reconciliationCsv(report.lines) } };
        } catch (error) {
          if (!(error instanceof ReconciliationRangeError)) throw error;
          return { page: { title: 'Reconciliation', nav: 'Reconciliation', status: 400, body: rangeForm(range, error.message) } };
        }
      },
    },
  ];
}

function rangeForm(range: { from: string; to: string }, error?: string): SafeHtml {
  return html`${error ? html`<p class="error" role="alert">${error}</p>` : ''}
    <form method="get" action="/console/reconciliation" class="filters">
      <label>From <input type="date" name="from" value="${range.from}" required /></label>
      <label>To <input type="date" name="to" value="${range.to}" required /></label>
      <button type="submit">Reconcile</button>
    </form>
    <p class="muted">UTC days, both included, at most ${MAX_RECONCILIATION_DAYS}.</p>`;
}

function reportBody(report: ReconciliationReport): SafeHtml {
  const csvHref = `/console/reconciliation.csv?from=${encodeURIComponent(report.from)}&to=${encodeURIComponent(report.to)}`;
  const differences = report.lines.length;
  return html`${rangeForm(report)}
    <p role="status">
      ${differences === 0 ? 'No difference.' : `${differences} ${differences === 1 ? 'difference' : 'differences'}, listed below.`}
      <a href="${csvHref}">Download the lines as CSV</a>
    </p>
    <h2>Processor against the books</h2>
    <p class="muted">
      The processor's balance transactions against the ledger's processor clearing. Disputes count at their net (peerpay books the dispute
      fee); processing fees are the processor's and not booked by peerpay.
    </p>
    ${daysTable(report.days)}
    <h2>Chain custody against the books</h2>
    ${custodyTable(report.custody)}
    <h2>Differences</h2>
    ${linesTable(report.lines)}`;
}

const head = (names: readonly string[], numeric: number) =>
  html`<thead>
    <tr>
      ${names.map((name, i) => html`<th scope="col" ${i >= numeric ? raw(' class="num"') : ''}>${name}</th>`)}
    </tr>
  </thead>`;

function daysTable(days: ReconciliationReport['days']): SafeHtml {
  const rows = days.map(
    (d) =>
      html`<tr>
        <td>${d.day}</td>
        <td>${d.currency}</td>
        <td class="num">${d.movements}</td>
        <td class="num">${d.bookings}</td>
        <td class="num">${formatMinor(d.expectedMinor, d.currency)}</td>
        <td class="num">${formatMinor(d.foundMinor, d.currency)}</td>
        <td class="num">${formatMinor(d.unbookedProcessorFeesMinor, d.currency)}</td>
      </tr>`,
  );
  return html`<div class="table-scroll">
    <table>
      ${head(['Day', 'Currency', 'Transactions', 'Bookings', 'Processor', 'Books', 'Processing fees (not booked)'], 2)}
      <tbody>
        ${
          rows.length === 0
            ? html`<tr>
                <td colspan="7">Nothing moved in this range.</td>
              </tr>`
            : rows
        }
      </tbody>
    </table>
  </div>`;
}

function custodyTable(custody: ReconciliationReport['custody']): SafeHtml {
  const rows = custody.map(
    (c) =>
      html`<tr>
        <td>${c.token}</td>
        <td class="num">${formatMinor(c.chainMinor, c.token)}</td>
        <td class="num">${formatMinor(c.booksMinor, c.token)}</td>
        <td>${c.checkedAt.toISOString()} (block ${c.blockNumber})</td>
        <td>${c.ok ? 'whole' : 'shortfall'}</td>
      </tr>`,
  );
  return html`<div class="table-scroll">
    <table>
      <thead>
        <tr>
          <th scope="col">Token</th>
          <th scope="col" class="num">Chain</th>
          <th scope="col" class="num">Books</th>
          <th scope="col">Checked</th>
          <th scope="col">Result</th>
        </tr>
      </thead>
      <tbody>
        ${
          rows.length === 0
            ? html`<tr>
                <td colspan="5">No custody check yet.</td>
              </tr>`
            : rows
        }
      </tbody>
    </table>
  </div>`;
}

function linesTable(lines: readonly ReconciliationLine[]): SafeHtml {
  if (lines.length === 0) return html`<p>None: every transaction has its booking and every booking its transaction.</p>`;
  return html`<div class="table-scroll">
    <table id="differences">
      <thead>
        <tr>
          <th scope="col">Day</th>
          <th scope="col">Asset</th>
          <th scope="col">Kind</th>
          <th scope="col">Transaction or booking</th>
          <th scope="col" class="num">Expected</th>
          <th scope="col" class="num">Found</th>
          <th scope="col" class="num">Difference</th>
          <th scope="col">Note</th>
        </tr>
      </thead>
      <tbody>
        ${lines.map(
          (l) =>
            html`<tr>
              <td>${l.day}</td>
              <td>${l.asset}</td>
              <td>${l.kind}</td>
              <td><code>${l.subject}</code></td>
              <td class="num">${formatMinor(l.expectedMinor, l.asset)}</td>
              <td class="num">${formatMinor(l.foundMinor, l.asset)}</td>
              <td class="num">${formatMinor(l.foundMinor - l.expectedMinor, l.asset)}</td>
              <td>${l.note}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
