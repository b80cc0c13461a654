// Pieces every console page module uses: amounts and times as people read them, tables, the
// not-found and refusal answers, and running an action so that a refusal changes nothing and
// says why.
import { AppError } from '../../platform/errors.js';
import { formatMinor } from '../../money/amount.js';
import type { Asset } from '../../money/assets.js';
import type { AuditEntryView } from '../../compliance/audit/audit-views.js';
import type { Actor } from '../../compliance/audit/audit-log.js';
import type { ConsoleAnswer, ConsoleNavName, ConsoleViewer } from '../console-route.js';
import { html, type HtmlValue, type SafeHtml } from '../html.js';

/** An amount in minor units as `12.50 USD`: formatted from the bigint, never through a float. */
export function money(minor: bigint, asset: Asset): string {
  return `${formatMinor(minor, asset)} ${asset}`;
}

/** A time as UTC, to the second, in a <time> element. */
export function when(at: Date | null): SafeHtml {
  if (at === null) return html`—`;
  return html`<time datetime="${at.toISOString()}">${at.toISOString().slice(0, 19).replace('T', ' ')} UTC</time>`;
}

/** A table with column headers; a sentence instead when there are no rows. */
export function table(caption: string, headers: readonly string[], rows: readonly SafeHtml[], empty = 'None.'): SafeHtml {
  if (rows.length === 0) return html`<p class="empty">${caption}: ${empty}</p>`;
  // Scrolled sideways on a narrow screen rather than squeezed.
  return html`<div class="table-scroll" role="region" aria-label="${caption}" tabindex="0">
    <table>
      <caption>
        ${caption}
      </caption>
      <thead>
        <tr>
          ${headers.map((h) => html`<th scope="col">${h}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>
  </div>`;
}

/** One table row of cells (each escaped unless SafeHtml). */
export function row(...cells: HtmlValue[]): SafeHtml {
  return html`<tr>
    ${cells.map((c) => html`<td>${c}</td>`)}
  </tr>`;
}

/** The 404 page of an unknown id. */
export function notFound(nav: ConsoleNavName, what: string): ConsoleAnswer {
  return {
    page: {
      title: 'Not found',
      nav,
      status: 404,
      body: html` <p>${what}</p>`,
    },
  };
}

/** Where a refused action's reason is shown, above the page it was made on. */
export function refusalNotice(reason: string | undefined): SafeHtml {
  if (reason === undefined) return html``;
  return html`<div class="refusal" role="alert">
    <h2>Refused, nothing changed</h2>
    <p>${reason}</p>
  </div>`;
}

export type ActionOutcome = { done: true } | { refused: string; notFound: boolean };

/**
 * Runs an operator action through its service: done, or refused with the service's reason (a
 * refused action is answered by its service before anything changes). Bugs are not turned into
 * refusals: anything but an AppError goes on to the plugin's error page.
 */
export async function attempt(action: () => Promise<unknown>): Promise<ActionOutcome> {
  try {
    await action();
    return { done: true };
  } catch (error) {
    if (error instanceof AppError) return { refused: error.detail, notFound: error.code === 'not_found' };
    throw error;
  }
}

/** The latest audit entries about something, newest first, so that an action's entry is seen at once. */
export function auditTable(entries: readonly AuditEntryView[]): SafeHtml {
  return table(
    'Latest audit entries',
    ['When', 'Operator', 'Action', 'Target', 'Note'],
    entries.map((e) => row(when(new Date(e.at)), e.operator, e.action, e.target, e.note)),
  );
}

/** A select with a visible label. */
export function selectField(id: string, label: string, name: string, options: readonly string[], chosen?: string): SafeHtml {
  return html`<label for="${id}">${label}</label>
    <select id="${id}" name="${name}">
      ${options.map((o) => html`<option value="${o}" ${o === chosen ? html` selected` : ''}>${o}</option>`)}
    </select>`;
}

/** A text input with a visible label. */
export function textField(id: string, label: string, name: string, value = '', extra: SafeHtml = html``): SafeHtml {
  return html`<label for="${id}">${label}</label> <input id="${id}" name="${name}" value="${value}" ${extra} />`;
}

/** A GET form's fields as a query string, for paging links. */
export function queryString(values: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) if (v !== undefined && v !== '') params.set(k, v);
  return params.toString();
}

/** The audit log's actor for a console action: the signed-in operator, in this request. */
export function actorOf(request: { viewer: ConsoleViewer; requestId: string }): Actor {
  return { operator: request.viewer.name, requestId: request.requestId };
}
