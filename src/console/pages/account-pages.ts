// The console's Accounts pages (DESIGN §17, §18): the search and one account, with the actions the
// operator's role allows. Every action goes through the service the operator API calls, so that it
// writes the same audit entry; on success the browser goes to the account page, which lists it.
import type { ConsoleAnswer, ConsoleRequest, ConsoleRoute } from '../console-route.js';
import { html, type SafeHtml } from '../html.js';
import { accountPage, type AccountPagesDeps } from './account-page.js';
import { accountActionRoutes } from './account-actions.js';
import { row, table, when } from './page-parts.js';

export type { AccountPagesDeps };

function searchForm(q: string): SafeHtml {
  return html`<form method="get" action="/console/accounts" role="search">
    <label for="account-q">Search</label>
    <input id="account-q" name="q" value="${q}" maxlength="254" placeholder="id, e-mail, handle, phone or deposit address" />
    <button type="submit">Search</button>
  </form>`;
}

async function searchPage(deps: AccountPagesDeps, request: ConsoleRequest): Promise<ConsoleAnswer> {
  const q = (request.query.q ?? '').trim().slice(0, 254);
  const found = q === '' ? null : await deps.directory.search(q);
  const results =
    found === null
      ? html``
      : table(
          `Accounts matching "${q}"`,
          ['Account', 'Handle', 'E-mail', 'Name', 'Created', 'Frozen'],
          found.map((a) =>
            row(html`<a href="/console/accounts/${a.id}">${a.id}</a>`, a.handle, a.email, a.name, when(a.createdAt), a.frozenScope ?? 'no'),
          ),
          'no account found.',
        );
  return {
    page: {
      title: 'Accounts',
      nav: 'Accounts',
      body: html` ${searchForm(q)}${results}`,
    },
  };
}

export function createAccountPages(deps: AccountPagesDeps): ConsoleRoute[] {
  return [
    { method: 'GET', url: '/console/accounts', role: 'viewer', handle: (request) => searchPage(deps, request) },
    { method: 'GET', url: '/console/accounts/:id', role: 'viewer', handle: (request) => accountPage(deps, request) },
    ...accountActionRoutes(deps),
  ];
}
