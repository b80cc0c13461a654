// One account's console page (DESIGN §17, §18): profile, balances on both rails with held and
// owed, its freeze, limits and overrides, open disputes, recent transfers, webhook endpoints with
// their failures, active keys, blocked deposits, payouts, the latest audit entries about it, and
// the action forms the viewer's role allows (and only those).
import type { AccountDetail } from '../../admin/accounts/account-detail-service.js';
import type { BlockedDepositRow, PayoutRow } from '../../admin/accounts/account-activity-repository.js';
import type { AuditEntryView } from '../../compliance/audit/audit-views.js';
import type { LimitLine, OverrideLine } from '../../compliance/limits/limits-service.js';
import type { Asset } from '../../money/assets.js';
import type { ConsoleViewer } from '../console-route.js';
import { html, type SafeHtml } from '../html.js';
import { auditTable, money, row, table, when } from './page-parts.js';
import { accountActionForms, depositReleaseForm, payoutReverseForm } from './account-forms.js';
import { roleAllows } from '../../compliance/operators/operator-roles.js';

export interface AccountPageData {
  detail: AccountDetail;
  limits: LimitLine[];
  overrides: OverrideLine[];
  blockedDeposits: BlockedDepositRow[];
  payouts: PayoutRow[];
  audit: AuditEntryView[];
}

function profileSection(d: AccountDetail): SafeHtml {
  const p = d.profile;
  const freeze = p.freeze;
  return html`<dl class="profile">
    <dt>Account</dt>
    <dd>${p.id}</dd>
    <dt>Handle</dt>
    <dd>${p.handle}</dd>
    <dt>E-mail</dt>
    <dd>${p.email}</dd>
    <dt>Name</dt>
    <dd>${p.name}</dd>
    <dt>Phone</dt>
    <dd>${p.phone ?? '—'}</dd>
    <dt>Deposit address</dt>
    <dd><code>${p.depositAddress ?? '—'}</code></dd>
    <dt>Created</dt>
    <dd>${when(p.createdAt)}</dd>
    <dt>Payment methods</dt>
    <dd>
      card ${d.paymentMethods.card ? 'yes' : 'no'}, bank debit ${d.paymentMethods.bankDebit ? 'yes' : 'no'}, payouts
      ${d.paymentMethods.payouts ? 'yes' : 'no'}
    </dd>
    <dt>Active API keys</dt>
    <dd>${d.activeKeys}</dd>
    <dt>Frozen</dt>
    <dd class="frozen">
      ${freeze ? html`<strong>${freeze.scope === 'all' ? 'all outgoing money' : 'payouts only'}</strong> since ${when(freeze.since)} by ${freeze.by}` : 'no'}
    </dd>
  </dl>`;
}

function balancesSection(d: AccountDetail): SafeHtml {
  return html`${table(
    'Fiat balances',
    ['Currency', 'Available', 'Pending', 'Held', 'Owed'],
    d.fiat.map((b) =>
      row(
        b.currency,
        money(b.availableMinor, b.currency),
        money(b.pendingMinor, b.currency),
        money(b.heldMinor, b.currency),
        money(b.owedMinor, b.currency),
      ),
    ),
  )}
  ${table(
    'Stablecoin balances',
    ['Token', 'Available', 'Pending'],
    d.stablecoin.map((b) => row(b.currency, money(b.availableMinor, b.currency), money(b.pendingMinor, b.currency))),
  )}`;
}

function limitsSection(limits: LimitLine[], overrides: OverrideLine[]): SafeHtml {
  return html`${table(
    'Effective limits',
    ['Rail', 'Currency', 'Window', 'Limit', 'Used', 'Remaining'],
    limits.map((l) => row(l.rail, l.currency, l.window, l.limit, l.used, l.remaining)),
  )}
  ${table(
    'Limit overrides',
    ['Currency', 'Day', 'Month', 'Set'],
    overrides.map((o) => row(o.currency, o.day ?? 'default', o.month ?? 'default', when(new Date(o.updatedAt)))),
  )}`;
}

function transfersSection(d: AccountDetail): SafeHtml {
  return html`${table(
    'Open disputes',
    ['Dispute', 'Transfer', 'Side', 'Amount', 'Reason', 'Opened'],
    d.openDisputes.map((x) =>
      row(
        x.id,
        html`<a href="/console/transfers/${x.transferId}">${x.transferId}</a>`,
        x.role,
        money(x.amountMinor, x.currency as Asset),
        x.reason,
        when(x.openedAt),
      ),
    ),
  )}
  ${table(
    'Recent fiat transfers',
    ['Transfer', 'Direction', 'Amount', 'Fee', 'Method', 'Status', 'Other user', 'Created'],
    d.recentFiat.map((t) =>
      row(
        html`<a href="/console/transfers/${t.id}">${t.id}</a>`,
        t.direction,
        money(t.amountMinor, t.currency),
        money(t.feeMinor, t.currency),
        t.paymentMethod,
        t.status,
        t.direction === 'sent' ? t.recipientHandle : t.senderHandle,
        when(t.createdAt),
      ),
    ),
  )}
  ${table(
    'Recent stablecoin movements',
    ['Id', 'Type', 'Direction', 'Amount', 'Fee', 'Status', 'Other user or address', 'Created'],
    d.recentStablecoin.map((h) =>
      row(
        h.type === 'transfer' ? html`<a href="/console/transfers/${h.id}">${h.id}</a>` : h.id,
        h.type,
        h.direction,
        money(h.amountMinor, h.currency),
        money(h.feeMinor, h.currency),
        h.status,
        h.counterpartyHandle ?? h.address ?? '—',
        when(h.createdAt),
      ),
    ),
  )}`;
}

function webhooksSection(d: AccountDetail): SafeHtml {
  return table(
    'Webhook endpoints',
    ['Endpoint', 'URL', 'Status', 'Failing since', 'Recent failures'],
    d.webhookEndpoints.map((w) => row(w.id, w.url, w.status, when(w.failingSince), w.recentFailures)),
  );
}

function moneyActionsSection(viewer: ConsoleViewer, data: AccountPageData): SafeHtml {
  const accountId = data.detail.profile.id;
  const canRelease = roleAllows(viewer.role, 'support');
  const canReverse = roleAllows(viewer.role, 'admin');
  return html`${table(
    'Blocked deposits',
    ['Deposit', 'Amount', 'From', 'Transaction', 'Recorded', ...(canRelease ? ['Action'] : [])],
    data.blockedDeposits.map((b) =>
      row(
        b.id,
        money(b.amountMinor, b.token),
        b.from,
        b.txHash,
        when(b.recordedAt),
        ...(canRelease ? [depositReleaseForm(viewer, accountId, b)] : []),
      ),
    ),
  )}
  ${table(
    'Payouts',
    ['Payout', 'Amount', 'Status', 'Processor id', 'Created', ...(canReverse ? ['Action'] : [])],
    data.payouts.map((p) =>
      row(
        p.id,
        money(p.amountMinor, p.currency),
        p.status,
        p.processorRef ?? '—',
        when(p.createdAt),
        ...(canReverse ? [p.status === 'paid' ? payoutReverseForm(viewer, p) : '—'] : []),
      ),
    ),
  )}`;
}

export function accountPageBody(viewer: ConsoleViewer, data: AccountPageData, notice: SafeHtml): SafeHtml {
  const d = data.detail;
  return html` ${notice} ${profileSection(d)} ${balancesSection(d)} ${limitsSection(data.limits, data.overrides)}
  ${accountActionForms(viewer, d)} ${transfersSection(d)} ${moneyActionsSection(viewer, data)} ${webhooksSection(d)}
  ${auditTable(data.audit)}`;
}
