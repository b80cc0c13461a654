// The page around every console page (DESIGN §18): the navigation (links named as CONSOLE_NAV,
// the current one marked), who is signed in, the Sign out button and the title. No script.
import { CONSOLE_NAV, type ConsoleNavName, type ConsoleViewer } from './console-route.js';
import { csrfField } from './forms.js';
import { html, type SafeHtml } from './html.js';

export const CONSOLE_CSS_PATH = '/console/assets/console.css';

function document(title: string, header: SafeHtml | string, body: SafeHtml): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>${title} · peerpay console</title>
        <link rel="stylesheet" href="${CONSOLE_CSS_PATH}" />
      </head>
      <body>
        <header>${header}</header>
        <main>
          <h1>${title}</h1>
          ${body}
        </main>
      </body>
    </html> `.text;
}

/** A signed-in operator's page; `nav` null when no link is current (a refusal). */
export function consoleDocument(viewer: ConsoleViewer, page: { title: string; nav: ConsoleNavName | null; body: SafeHtml }): string {
  const links = CONSOLE_NAV.map(
    (link) => html`<li><a href="${link.path}" ${link.name === page.nav ? html` aria-current="page"` : ''}>${link.name}</a></li>`,
  );
  const header = html`<a class="brand" href="/console">peerpay console</a>
    <nav aria-label="Console">
      <ul>
        ${links}
      </ul>
    </nav>
    <span class="who">${viewer.name} (${viewer.role})</span>
    <form method="post" action="/console/sign-out">${csrfField(viewer)}<button type="submit">Sign out</button></form>`;
  return document(page.title, header, page.body);
}

/** A page for someone not signed in (sign-in, enrolment): no navigation. */
export function publicDocument(title: string, body: SafeHtml): string {
  return document(title, html`<span class="brand">peerpay console</span>`, body);
}
