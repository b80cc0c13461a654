// How the Transfers pages draw a transfer search and one transfer (DESIGN §18).
import type { TransferDetail } from '../../admin/transfers/transfer-directory.js';
import type { TransferSearchRow } from '../../admin/transfers/transfer-search-repository.js';
import { FIAT_STATUSES, STABLECOIN_STATUSES } from '../../admin/transfers/transfer-search-repository.js';
import type { AuditEntryView } from '../../compliance/audit/audit-views.js';
import { roleAllows } from '../../compliance/operators/operator-roles.js';
import { formatMinor } from '../../money/amount.js';
import type { FiatCurrency } from '../../money/assets.js';
import type { ConsoleViewer } from '../console-route.js';
import { actionForm } from '../forms.js';
import { html, type SafeHtml } from '../html.js';
import { onceField } from './account-forms.js';
import { auditTable, money, row, selectField, table, textField, when } from './page-parts.js';

export interface TransferQuery {
  q: string;
  from: string;
  to: string;
  rail: string;
  status: string;
}

export const STATUS_CHOICES = ['any', ...new Set([...FIAT_STATUSES, ...STABLECOIN_STATUSES])];

export function transferSearchForm(query: TransferQuery): SafeHtml {
  return html`<form method="get" action="/console/transfers" role="search" class="filters">
    ${textField('transfers-q', 'Transfer id, handle or e-mail', 'q', query.q, html`maxlength="254"`)}
    ${textField('transfers-from', 'From (date, UTC)', 'from', query.from, html`type="date"`)}
    ${textField('transfers-to', 'To (date, UTC, inclusive)', 'to', query.to, html`type="date"`)}
    ${selectField('transfers-rail', 'Rail', 'rail', ['any', 'fiat', 'stablecoin'], query.rail || 'any')}
    ${selectField('transfers-status', 'Status', 'status', STATUS_CHOICES, query.status || 'any')}
    <button type="submit">Search</button>
  </form>`;
}

export function transferRows(rows: readonly TransferSearchRow[]): SafeHtml {
  return table(
    'Transfers',
    ['Transfer', 'Rail', 'Amount', 'Fee', 'Method', 'Status', 'From', 'To', 'Created'],
    rows.map((t) =>
      row(
        html`<a href="/console/transfers/${t.id}">${t.id}</a>`,
        t.rail,
        money(t.amountMinor, t.currency),
        money(t.feeMinor, t.currency),
        t.paymentMethod ?? '—',
        t.status,
        t.senderHandle,
        t.recipientHandle,
        when(t.createdAt),
      ),
    ),
    'no transfer matches.',
  );
}

function summary(d: TransferDetail): SafeHtml {
  const t = d.transfer;
  return html`<dl class="profile">
    <dt>Rail</dt>
    <dd>${t.rail}</dd>
    <dt>Amount</dt>
    <dd>${money(t.amountMinor, t.currency)}</dd>
    <dt>Fee</dt>
    <dd>${money(t.feeMinor, t.currency)}</dd>
    <dt>Status</dt>
    <dd>${t.status}${t.failureCode ? ` (${t.failureCode})` : ''}</dd>
    <dt>Method</dt>
    <dd>${t.paymentMethod ?? '—'}</dd>
    <dt>From</dt>
    <dd><a href="/console/accounts/${t.senderAccountId}">${t.senderHandle}</a></dd>
    <dt>To</dt>
    <dd><a href="/console/accounts/${t.recipientAccountId}">${t.recipientHandle}</a></dd>
    <dt>Processor payment</dt>
    <dd><code>${t.processorRef ?? '—'}</code></dd>
    <dt>Processor instrument</dt>
    <dd><code>${t.instrumentRef ?? '—'}</code></dd>
    <dt>Created</dt>
    <dd>${when(t.createdAt)}</dd>
    <dt>Completed</dt>
    <dd>${when(t.completedAt)}</dd>
  </dl>`;
}

function moneyTrail(d: TransferDetail): SafeHtml {
  return html`${table(
    'Refunds',
    ['Refund', 'Amount', 'Fee given back', 'Status', 'Reason', 'Origin', 'Processor id', 'Created'],
    d.refunds.map((r) =>
      row(
        r.id,
        money(r.amountMinor, d.transfer.currency),
        money(r.feeMinor, d.transfer.currency),
        r.status,
        r.reason,
        r.origin,
        r.processorRef ?? '—',
        when(r.createdAt),
      ),
    ),
  )}
  ${table(
    'Disputes',
    ['Dispute', 'Processor id', 'Amount', 'Status', 'Reason', 'Opened', 'Closed'],
    d.disputes.map((x) =>
      row(x.id, x.processorRef, money(x.amountMinor, d.transfer.currency), x.status, x.reason, when(x.openedAt), when(x.closedAt)),
    ),
  )}
  ${table(
    'Ledger entries',
    ['Entry', 'Operation', 'Kind', 'Code', 'Amount', 'Debit', 'Credit', 'At'],
    d.ledgerEntries.map((e) =>
      row(String(e.id), e.operationId, e.kind, e.code, money(e.amountMinor, e.asset), e.debit, e.credit, when(e.createdAt)),
    ),
  )}`;
}

function notifications(d: TransferDetail): SafeHtml {
  return html`${table(
    'Events',
    ['Event', 'Sequence', 'Account', 'Type', 'At'],
    d.events.map((e) =>
      row(e.id, String(e.seq), html`<a href="/console/accounts/${e.accountId}">${e.accountId}</a>`, e.type, when(e.createdAt)),
    ),
  )}
  ${table(
    'Webhook attempts',
    ['Event sequence', 'Endpoint', 'Attempt', 'Status code', 'Succeeded', 'Error', 'At'],
    d.webhookAttempts.map((a) =>
      row(
        String(a.eventSeq),
        a.endpointUrl,
        a.attempt,
        a.statusCode ?? '—',
        a.succeeded ? 'yes' : 'no',
        a.error ?? '—',
        when(a.attemptedAt),
      ),
    ),
  )}`;
}

function refundForm(viewer: ConsoleViewer, d: TransferDetail): SafeHtml {
  const t = d.transfer;
  if (t.rail !== 'fiat' || t.status !== 'completed' || !roleAllows(viewer.role, 'admin')) return html``;
  const currency = t.currency as FiatCurrency;
  return html`<section class="actions">
    <h2>Actions</h2>
    ${actionForm(viewer, {
      action: `/console/transfers/${t.id}/refund`,
      consequence: `Refunds (part of) transfer ${t.id} to the payer at the processor (card or bank debit): ${t.recipientHandle} gives the amount back (from held, then available, the rest becomes a debt), and with "Give back the fee" the platform's fee too.`,
      submit: 'Refund transfer',
      fields: html`${onceField()}
        ${textField(`refund-${t.id}-amount`, `Amount in ${currency} (empty: all that is left)`, 'amount', '', html`inputmode="decimal" autocomplete="off" placeholder="${formatMinor(t.amountMinor, currency)}"`)}
        ${selectField(`refund-${t.id}-reason`, 'Reason', 'reason', ['requested_by_customer', 'duplicate', 'fraudulent'])}
        <label class="check"><input type="checkbox" name="refundFee" value="yes" /> Give back the fee</label>`,
    })}
  </section>`;
}

export function transferPageBody(viewer: ConsoleViewer, d: TransferDetail, audit: readonly AuditEntryView[], notice: SafeHtml): SafeHtml {
  return html` ${notice} ${summary(d)} ${refundForm(viewer, d)} ${moneyTrail(d)} ${notifications(d)} ${auditTable(audit)}`;
}
