// The console's forms (DESIGN §18): every action states its consequence, asks for the note (the
// audit entry's) and a confirmation, and carries the session's CSRF token.
import { html, type SafeHtml } from './html.js';
import type { ConsoleViewer } from './console-route.js';

/** The hidden field the plugin checks on every POST. */
export const CSRF_FIELD = 'csrf';

export function csrfField(viewer: ConsoleViewer): SafeHtml {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${viewer.csrfToken}" />`;
}

export interface ActionFormSpec {
  /** Where the form posts, e.g. `/console/accounts/acc_1/freeze`. */
  action: string;
  /** What the action does, in a sentence the operator reads before confirming. */
  consequence: string;
  /** The button's text, e.g. `Freeze account`. */
  submit: string;
  /** Fields of the action itself (a select, an amount), rendered before the note. */
  fields?: SafeHtml;
}

/** An action form: its consequence, its own fields, a required `Note`, a confirmation box, the CSRF token. */
export function actionForm(viewer: ConsoleViewer, spec: ActionFormSpec): SafeHtml {
  const id = spec.action.replace(/[^A-Za-z0-9]+/g, '-');
  return html`<form method="post" action="${spec.action}" class="action">
    ${csrfField(viewer)}
    <p class="consequence">${spec.consequence}</p>
    ${spec.fields ?? ''}
    <label for="${id}-note">Note</label>
    <textarea id="${id}-note" name="note" required maxlength="1000"></textarea>
    <label class="confirm"><input type="checkbox" name="confirm" value="yes" required /> I confirm: ${spec.consequence}</label>
    <button type="submit">${spec.submit}</button>
  </form>`;
}

/** The note and confirmation every action form sends; null with the reason when either is missing. */
export function readActionForm(form: Record<string, string | undefined>): { note: string } | { refused: string } {
  const note = (form.note ?? '').trim();
  if (note === '') return { refused: 'A note is required: it is kept in the audit log.' };
  if (form.confirm !== 'yes') return { refused: 'Tick the confirmation box to go ahead.' };
  return { note };
}
