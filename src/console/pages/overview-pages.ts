// The Overview page at /console (DESIGN §18): per token the hot wallet, committed, cold, the books
// against chain custody, users' balances and fees; the last custody check; readiness; backlogs;
// withdrawals waiting; and the charts of the last 24 hours and 30 days.
import type { ConsoleRoute } from '../console-route.js';
import { html, type SafeHtml } from '../html.js';
import { formatMinor } from '../../money/amount.js';
import type { Clock } from '../../platform/clock.js';
import type { Overview, OverviewFigures } from '../../operations/overview/overview-service.js';
import type { Backlogs } from '../../operations/overview/backlogs.js';
import type { Snapshots } from '../../operations/snapshots/snapshots-service.js';
import type { TokenTreasury } from '../../stablecoin/treasury/treasury-view.js';
import { READINESS_CHECKS } from '../../health/readiness-service.js';
import { overviewCharts } from './overview-charts.js';

export interface OverviewPagesDeps {
  overview: Overview;
  snapshots: Snapshots;
  clock: Clock;
}

export function createOverviewPages(deps: OverviewPagesDeps): ConsoleRoute[] {
  return [
    {
      method: 'GET',
      url: '/console',
      role: 'viewer',
      async handle() {
        const [figures, charts] = await Promise.all([deps.overview.read(), overviewCharts(deps.snapshots, deps.clock.now())]);
        return { page: { title: 'Overview', nav: 'Overview', body: html`${figuresBody(figures)}${charts}` } };
      },
    },
  ];
}

function figuresBody(figures: OverviewFigures): SafeHtml {
  const { treasury, readiness, backlogs } = figures;
  return html`<section aria-labelledby="readiness">
      <h2 id="readiness">Readiness: ${readiness.ready ? 'ready' : `not ready (${readiness.failing.join(', ')})`}</h2>
      <ul>
        ${READINESS_CHECKS.map((name) => {
          const check = readiness.checks[name];
          return html`<li>${name}: ${check.status}${check.detail ? html` — ${check.detail}` : ''}</li>`;
        })}
      </ul>
    </section>
    <section aria-labelledby="custody">
      <h2 id="custody">Custody per token</h2>
      <p class="muted">
        Hot wallet ${treasury.hotWallet}; gas
        ${treasury.gas.low ? 'low: top it up' : 'enough'}${treasury.coldAddress ? html`; cold address ${treasury.coldAddress}` : ''}.
      </p>
      <div class="table-scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">Token</th>
              <th scope="col" class="num">Hot wallet</th>
              <th scope="col" class="num">Committed</th>
              <th scope="col" class="num">Cold (sent − returned)</th>
              <th scope="col" class="num">Books (custody)</th>
              <th scope="col" class="num">Chain (last check)</th>
              <th scope="col" class="num">Users' balances</th>
              <th scope="col" class="num">Fees</th>
              <th scope="col">Last custody check</th>
              <th scope="col" class="num">Withdrawals waiting</th>
            </tr>
          </thead>
          <tbody>
            ${treasury.tokens.map(tokenRow)}
          </tbody>
        </table>
      </div>
    </section>
    ${backlogsSection(backlogs)}`;
}

function backlogsSection(backlogs: Backlogs): SafeHtml {
  return html`<section aria-labelledby="backlogs">
    <h2 id="backlogs">Backlogs</h2>
    <table>
      <tbody>
        <tr>
          <th scope="row">Withdrawals pending</th>
          <td class="num">${backlogs.withdrawalsPending}</td>
        </tr>
        <tr>
          <th scope="row">Hot wallet transactions not yet final</th>
          <td class="num">${backlogs.outboxUnfinished}</td>
        </tr>
        <tr>
          <th scope="row">Card charges under way</th>
          <td class="num">${backlogs.fiatProcessing}</td>
        </tr>
        <tr>
          <th scope="row">Payouts pending</th>
          <td class="num">${backlogs.payoutsPending}</td>
        </tr>
        <tr>
          <th scope="row">Webhook deliveries pending</th>
          <td class="num">${backlogs.webhookDeliveriesPending}</td>
        </tr>
        <tr>
          <th scope="row">Review items open</th>
          <td class="num">${backlogs.reviewItemsOpen}</td>
        </tr>
      </tbody>
    </table>
  </section>`;
}

function tokenRow(t: TokenTreasury): SafeHtml {
  const amount = (minor: bigint) => formatMinor(minor, t.token);
  const check = t.lastCheck;
  const waiting =
    t.waitingWithdrawals === 0 ? '0' : `${t.waitingWithdrawals} (${t.overdueWithdrawals} overdue, oldest ${t.oldestWaitingSeconds ?? 0} s)`;
  return html`<tr>
    <th scope="row">${t.token}</th>
    <td class="num">${amount(t.hotWalletMinor)}</td>
    <td class="num">${amount(t.committedMinor)}</td>
    <td class="num">${amount(t.coldSentMinor - t.coldReturnedMinor)}</td>
    <td class="num">${amount(t.booksCustodyMinor)}</td>
    <td class="num">${check ? amount(check.chainMinor) : '—'}</td>
    <td class="num">${amount(t.userBalancesMinor)}</td>
    <td class="num">${amount(t.feesMinor)}</td>
    <td>
      ${check ? `${check.ok ? 'whole' : 'SHORTFALL'} at ${check.checkedAt.toISOString()}, block ${check.blockNumber}` : 'not checked yet'}
    </td>
    <td class="num">${waiting}</td>
  </tr>`;
}
