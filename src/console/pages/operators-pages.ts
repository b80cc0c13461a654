// Operators (DESIGN §17, §18): the list for every role; for admins the forms to add one (its API
// token and enrolment link shown once), disable one, and reset one's TOTP (a new enrolment link).
// Each goes through the operators service, which writes the audit entry in the same transaction;
// the answer shows that entry.
import type { AuditLogReader } from '../../compliance/audit/audit-repository.js';
import { OPERATOR_ROLES, roleAllows, type OperatorRole } from '../../compliance/operators/operator-roles.js';
import type { Operators } from '../../compliance/operators/operators-service.js';
import type { OperatorView } from '../../compliance/operators/operator-views.js';
import { AppError } from '../../platform/errors.js';
import { auditEntryUrl, latestAuditEntry } from '../audit-trail.js';
import type { ConsoleRequest, ConsoleRoute, ConsoleViewer } from '../console-route.js';
import { actionForm, readActionForm } from '../forms.js';
import { html, type SafeHtml } from '../html.js';
import { auditLogTable } from './audit-pages.js';

export interface OperatorsPagesDeps {
  operators: Operators;
  auditLog: AuditLogReader;
}

function operatorRow(viewer: ConsoleViewer, operator: OperatorView): SafeHtml {
  const admin = roleAllows(viewer.role, 'admin') && operator.disabledAt === null && operator.id !== viewer.operatorId;
  // Folded away (a details element needs no script): the list stays readable with many operators.
  const forms = admin
    ? html`<details>
        <summary>Actions for ${operator.name}</summary>
        ${actionForm(viewer, {
          action: `/console/operators/${operator.id}/disable`,
          consequence: `Disable ${operator.name}: its API token and console sign-in stop working at once.`,
          submit: `Disable ${operator.name}`,
        })}${actionForm(viewer, {
          action: `/console/operators/${operator.id}/reset-totp`,
          consequence: `Reset ${operator.name}'s console password and TOTP: its sessions end, and it must enrol again through a new link.`,
          submit: `Reset TOTP of ${operator.name}`,
        })}
      </details>`
    : '';
  return html`<tr>
    <td>${operator.name}</td>
    <td>${operator.role}</td>
    <td>${operator.createdAt}</td>
    <td>${operator.disabledAt ?? 'enabled'}</td>
    <td><a href="/console/audit?target=${operator.id}">${operator.id}</a>${forms}</td>
  </tr>`;
}

function addForm(viewer: ConsoleViewer): SafeHtml {
  const roles = OPERATOR_ROLES.map((role) => html`<option value="${role}">${role}</option>`);
  return html`<h2>Add an operator</h2>
    ${actionForm(viewer, {
      action: '/console/operators',
      consequence: 'Add an operator: an API token and a console enrolment link (valid 24 hours) are shown once.',
      submit: 'Add operator',
      fields: html`<label for="new-operator-name">Operator name</label>
        <input id="new-operator-name" name="name" type="text" pattern="[A-Za-z0-9._\\-]{1,64}" maxlength="64" required />
        <label for="new-operator-role">Role</label
        ><select id="new-operator-role" name="role">
          ${roles}
        </select>`,
    })}`;
}

async function listPage(deps: OperatorsPagesDeps, { viewer }: ConsoleRequest) {
  const operators = await deps.operators.list();
  const body = html`<div class="table-scroll">
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Role</th>
            <th scope="col">Created</th>
            <th scope="col">Disabled</th>
            <th scope="col">Id and actions</th>
          </tr>
        </thead>
        <tbody>
          ${operators.map((o) => operatorRow(viewer, o))}
        </tbody>
      </table>
    </div>
    ${roleAllows(viewer.role, 'admin') ? addForm(viewer) : ''}`;
  return { page: { title: 'Operators', nav: 'Operators' as const, body } };
}

/** The secrets of an add or a reset, shown this once, with the audit entry written. */
async function shownOnce(deps: OperatorsPagesDeps, title: string, target: string, secrets: SafeHtml) {
  const entry = await latestAuditEntry(deps.auditLog, target);
  const body = html`<p class="notice" role="status">Shown this once: copy it now and hand it over privately.</p>
    ${secrets}
    <h2>Audit entry</h2>
    ${auditLogTable(entry ? [entry] : [])}
    <p><a href="/console/operators">Back to Operators</a></p>`;
  return { page: { title, nav: 'Operators' as const, body } };
}

function noted(form: ConsoleRequest['form']): string {
  const read = readActionForm(form);
  if ('refused' in read) throw new AppError('invalid_request', read.refused);
  return read.note;
}

export function operatorsPages(deps: OperatorsPagesDeps): ConsoleRoute[] {
  const by = (request: ConsoleRequest) => ({ operator: request.viewer.name, requestId: request.requestId });
  return [
    { method: 'GET', url: '/console/operators', role: 'viewer', handle: (request) => listPage(deps, request) },
    {
      method: 'POST',
      url: '/console/operators',
      role: 'admin',
      async handle(request) {
        const note = noted(request.form);
        const role = request.form.role as OperatorRole;
        if (!OPERATOR_ROLES.includes(role)) throw new AppError('invalid_request', 'Choose a role: viewer, support or admin.');
        const name = (request.form.name ?? '').trim();
        if (!/^[A-Za-z0-9._-]{1,64}$/.test(name))
          throw new AppError('invalid_request', 'A name is 1 to 64 letters, digits, dots, dashes or underscores.');
        const made = await deps.operators.create({ name, role, note }, by(request));
        return shownOnce(
          deps,
          `Operator ${made.operator.name} added`,
          made.operator.id,
          html`<dl>
            <dt>API token</dt>
            <dd><code class="secret">${made.token}</code></dd>
            <dt>Console enrolment link (valid 24 hours, works once)</dt>
            <dd><a class="secret" href="${made.enrolmentUrl}">${made.enrolmentUrl}</a></dd>
          </dl>`,
        );
      },
    },
    {
      method: 'POST',
      url: '/console/operators/:id/disable',
      role: 'admin',
      async handle(request) {
        const id = request.params.id ?? '';
        await deps.operators.disable({ id, note: noted(request.form) }, by(request));
        return { redirect: await auditEntryUrl(deps.auditLog, id) };
      },
    },
    {
      method: 'POST',
      url: '/console/operators/:id/reset-totp',
      role: 'admin',
      async handle(request) {
        const reset = await deps.operators.resetTotp({ id: request.params.id ?? '', note: noted(request.form) }, by(request));
        return shownOnce(
          deps,
          `TOTP of ${reset.operator.name} reset`,
          reset.operator.id,
          html`<dl>
            <dt>New console enrolment link (valid 24 hours, works once)</dt>
            <dd><a class="secret" href="${reset.enrolmentUrl}">${reset.enrolmentUrl}</a></dd>
          </dl>`,
        );
      },
    },
  ];
}
