// The audit log (DESIGN §17, §18): every operator write and automatic control, oldest first, by
// operator and target, a page at a time (`after` is the last entry id seen).
import { DEFAULT_AUDIT_PAGE, type AuditLogReader } from '../../compliance/audit/audit-repository.js';
import type { AuditEntryView } from '../../compliance/audit/audit-views.js';
import type { ConsoleRoute } from '../console-route.js';
import { html, type SafeHtml } from '../html.js';
import { table } from './page-parts.js';

export interface AuditPagesDeps {
  auditLog: AuditLogReader;
}

const json = (value: unknown) => (value === null || value === undefined ? '' : html`<pre>${JSON.stringify(value, null, 1)}</pre>`);

/** Audit entries in full, each row an anchor (`#entry-ID`) the pages that wrote one link to. */
export function auditLogTable(entries: readonly AuditEntryView[]): SafeHtml {
  const rows = entries.map(
    (e) =>
      html`<tr id="entry-${e.id}">
        <td>${e.id}</td>
        <td><time datetime="${e.at}">${e.at.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}</time></td>
        <td>${e.operator}</td>
        <td>${e.action}</td>
        <td><a href="/console/audit?target=${encodeURIComponent(e.target)}">${e.target}</a></td>
        <td>${e.note}</td>
        <td>${json(e.before)}</td>
        <td>${json(e.after)}</td>
      </tr>`,
  );
  return table('Oldest first', ['Id', 'At', 'Operator', 'Action', 'Target', 'Note', 'Before', 'After'], rows, 'No audit entries.');
}

function filters(query: { operator: string; target: string }): SafeHtml {
  return html`<form method="get" action="/console/audit" class="filters" role="search">
    <label>Operator <input type="text" name="operator" value="${query.operator}" maxlength="64" /></label>
    <label>Target <input type="text" name="target" value="${query.target}" maxlength="200" /></label>
    <button type="submit">Filter</button>
    <a href="/console/audit">Clear</a>
  </form>`;
}

export function auditPages(deps: AuditPagesDeps): ConsoleRoute[] {
  return [
    {
      method: 'GET',
      url: '/console/audit',
      role: 'viewer',
      async handle({ query }) {
        const operator = (query.operator ?? '').trim();
        const target = (query.target ?? '').trim();
        const after = /^\d{1,19}$/.test(query.after ?? '') ? BigInt(query.after!) : undefined;
        const entries = await deps.auditLog.entries({
          limit: DEFAULT_AUDIT_PAGE,
          ...(after === undefined ? {} : { after }),
          ...(operator ? { operator } : {}),
          ...(target ? { target } : {}),
        });
        const last = entries[entries.length - 1];
        const next =
          last && entries.length === DEFAULT_AUDIT_PAGE
            ? html`<p>
                <a
                  href="/console/audit?${new URLSearchParams({ ...(operator ? { operator } : {}), ...(target ? { target } : {}), after: last.id }).toString()}"
                  >Next page</a
                >
              </p>`
            : '';
        return {
          page: { title: 'Audit log', nav: 'Audit log', body: html`${filters({ operator, target })}${auditLogTable(entries)}${next}` },
        };
      },
    },
  ];
}
