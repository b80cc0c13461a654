// The action forms of the account and money pages (DESIGN §17, §18), each stating its consequence.
// A form is only built for a role that may use it: the pages ask roleAllows before showing one.
import { randomUUID } from 'node:crypto';
import type { AccountDetail } from '../../admin/accounts/account-detail-service.js';
import type { BlockedDepositRow } from '../../admin/accounts/account-activity-repository.js';
import { roleAllows } from '../../compliance/operators/operator-roles.js';
import { LIMITED_ASSETS } from '../../config/limit-settings.js';
import { formatMinor } from '../../money/amount.js';
import type { FiatCurrency } from '../../money/assets.js';
import type { ConsoleViewer } from '../console-route.js';
import { actionForm } from '../forms.js';
import { html, type SafeHtml } from '../html.js';
import { money, selectField, textField } from './page-parts.js';

/**
 * A hidden one-time key carried by the forms that call a processor: the same form sent twice (a
 * double click, a reload) refunds or reverses once, as an Idempotency-Key does in the API.
 */
export function onceField(): SafeHtml {
  return html`<input type="hidden" name="once" value="${randomUUID()}" />`;
}

function freezeForms(viewer: ConsoleViewer, d: AccountDetail): SafeHtml[] {
  const id = d.profile.id;
  const freeze = d.profile.freeze;
  const forms: SafeHtml[] = [];
  if (freeze?.scope !== 'all')
    forms.push(
      actionForm(viewer, {
        action: `/console/accounts/${id}/freeze`,
        consequence: `Freezes account ${id}: with scope all, every outgoing movement (transfers, withdrawals, payouts) is refused; with scope payouts, only payouts. It can still sign in, read and receive.`,
        submit: 'Freeze account',
        fields: selectField(`freeze-${id}-scope`, 'Scope', 'scope', freeze ? ['all'] : ['all', 'payouts']),
      }),
    );
  if (freeze)
    forms.push(
      actionForm(viewer, {
        action: `/console/accounts/${id}/unfreeze`,
        consequence: `Unfreezes account ${id}: its outgoing money moves again.`,
        submit: 'Unfreeze account',
      }),
    );
  return forms;
}

function limitsForm(viewer: ConsoleViewer, d: AccountDetail): SafeHtml {
  const id = d.profile.id;
  return actionForm(viewer, {
    action: `/console/accounts/${id}/limits`,
    consequence: `Sets account ${id}'s limits in one currency on what it sends (fees included) over a rolling day and 30 days. An empty box leaves that window as it is; "default" puts it back to the default; 0 stops everything.`,
    submit: 'Set limits',
    fields: html`${selectField(`limits-${id}-currency`, 'Currency', 'currency', LIMITED_ASSETS)}
    ${textField(`limits-${id}-day`, 'Day limit', 'day', '', html`inputmode="decimal" autocomplete="off"`)}
    ${textField(`limits-${id}-month`, 'Month limit', 'month', '', html`inputmode="decimal" autocomplete="off"`)}`,
  });
}

export function writeOffForm(viewer: ConsoleViewer, accountId: number, currency: FiatCurrency, owedMinor: bigint): SafeHtml {
  return actionForm(viewer, {
    action: `/console/accounts/${accountId}/write-off`,
    consequence: `Writes off the ${money(owedMinor, currency)} account ${accountId} owes: the debt moves to the platform's losses and the account can send and be paid out in ${currency} again.`,
    submit: `Write off ${currency} debt`,
    fields: html`<input type="hidden" name="currency" value="${currency}" />`,
  });
}

/** Every account-level form the viewer's role allows (none for a viewer). */
export function accountActionForms(viewer: ConsoleViewer, d: AccountDetail): SafeHtml {
  if (!roleAllows(viewer.role, 'support')) return html``;
  const forms = [...freezeForms(viewer, d), limitsForm(viewer, d)];
  if (roleAllows(viewer.role, 'admin'))
    for (const b of d.fiat) if (b.owedMinor > 0n) forms.push(writeOffForm(viewer, d.profile.id, b.currency, b.owedMinor));
  return html`<section class="actions">
    <h2>Actions</h2>
    ${forms}
  </section>`;
}

export function depositReleaseForm(viewer: ConsoleViewer, accountId: number, b: BlockedDepositRow): SafeHtml {
  return actionForm(viewer, {
    action: `/console/accounts/${accountId}/deposits/${b.id}/release`,
    consequence: `Credits deposit ${b.id} (${money(b.amountMinor, b.token)} from ${b.from}, blocked by sanctions screening) to account ${accountId}, once.`,
    submit: 'Release deposit',
  });
}

export function payoutReverseForm(viewer: ConsoleViewer, payout: { id: string; currency: FiatCurrency; amountMinor: bigint }): SafeHtml {
  return actionForm(viewer, {
    action: `/console/payouts/${payout.id}/reverse`,
    consequence: `Reverses payout ${payout.id} (${money(payout.amountMinor, payout.currency)}) at the processor: the amount (all that is left when the box is empty) comes back to the user's balance and repays what it owes first.`,
    submit: 'Reverse payout',
    fields: html`${onceField()}
    ${textField(`reverse-${payout.id}-amount`, `Amount in ${payout.currency} (empty: all)`, 'amount', '', html`inputmode="decimal" autocomplete="off" placeholder="${formatMinor(payout.amountMinor, payout.currency)}"`)}`,
  });
}
