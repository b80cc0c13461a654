// The shape of a console page or action (DESIGN §18). Page modules are plain handlers over the
// services they read; the console plugin (console-plugin.ts) does the rest for every route alike:
// the session, the role check (a role too low gets the refusal page, and the form is not shown),
// the CSRF token of every POST (checked before the handler runs), the layout and the headers.
import type { OperatorRole } from '../compliance/operators/operator-roles.js';
import type { SafeHtml } from './html.js';

/** The navigation's links, named as DESIGN §18 lists them (people and scripts rely on the names). */
export const CONSOLE_NAV = [
  { name: 'Overview', path: '/console' },
  { name: 'Accounts', path: '/console/accounts' },
  { name: 'Transfers', path: '/console/transfers' },
  { name: 'Disputes', path: '/console/disputes' },
  { name: 'Withdrawals', path: '/console/withdrawals' },
  { name: 'Webhooks', path: '/console/webhooks' },
  { name: 'Audit log', path: '/console/audit' },
  { name: 'Operators', path: '/console/operators' },
  { name: 'Reconciliation', path: '/console/reconciliation' },
] as const;

export type ConsoleNavName = (typeof CONSOLE_NAV)[number]['name'];

/** The signed-in operator a console request is made by. */
export interface ConsoleViewer {
  operatorId: string;
  /** As the audit log names the operator. */
  name: string;
  role: OperatorRole;
  /** This session's CSRF token: every form carries it (csrfField in forms.ts). */
  csrfToken: string;
}

/** One page: the layout adds the navigation (with `nav` marked current), the Sign out button and the title. */
export interface ConsolePage {
  title: string;
  nav: ConsoleNavName;
  body: SafeHtml;
  /** 200 unless the page says otherwise (404 for an unknown id, 400 for a refused form). */
  status?: number;
}

export type ConsoleAnswer =
  | { page: ConsolePage }
  /** After an action: where the browser goes next (303), typically the page showing the audit entry written. */
  | { redirect: string }
  | { csv: { filename: string; body: string } };

export interface ConsoleRequest {
  viewer: ConsoleViewer;
  params: Record<string, string>;
  query: Record<string, string | undefined>;
  /** A POST's form fields (application/x-www-form-urlencoded), the CSRF token already checked and removed. */
  form: Record<string, string | undefined>;
  /** This request's id (X-Request-Id), for the audit entry an action writes. */
  requestId: string;
}

export interface ConsoleRoute {
  method: 'GET' | 'POST';
  /** Under /console, e.g. `/console/accounts/:id`. */
  url: string;
  /** The lowest role that may use it; the plugin refuses the rest with 403 and changes nothing. */
  role: OperatorRole;
  handle(request: ConsoleRequest): Promise<ConsoleAnswer>;
}
