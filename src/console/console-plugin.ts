// The operator console (DESIGN §18) as one Fastify plugin over a list of ConsoleRoute. For every
// route alike it does what a page module never has to: the session (from its cookie), the CSRF
// token of every POST (checked before anything else is done), the role (a role too low gets the
// refusal page and nothing changes), the layout and the headers (a strict CSP, no framing, no
// caching, no referrer). It answers only once at least one operator exists; CONSOLE=off leaves it
// unregistered. None of it is in the public OpenAPI document.
import formbody from '@fastify/formbody';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import type { App } from '../http/types.js';
import { statusOf } from '../http/plugins/problem-details.js';
import { roleAllows } from '../compliance/operators/operator-roles.js';
import { AppError } from '../platform/errors.js';
import type { ConsoleAnswer, ConsoleRoute, ConsoleViewer } from './console-route.js';
import { consoleDocument } from './console-layout.js';
import { CONSOLE_CSS } from './console-css.js';
import { CSRF_FIELD } from './forms.js';
import { html } from './html.js';
import { formFields, readCookie, sameToken, sendHtml, setConsoleHeaders, SESSION_COOKIE } from './console-http.js';
import { consoleAccessRoutes, type ConsoleAccess } from './console-access-routes.js';

export interface ConsolePluginDeps {
  /** Read to know whether any operator exists yet. */
  db: Db;
  access: ConsoleAccess;
  /** Live mode: the cookies are Secure. */
  secureCookies: boolean;
}

/** Route options every console route has: no API key looked at, hidden from the OpenAPI document. */
export const CONSOLE_ROUTE_OPTIONS = { config: { auth: 'public' as const }, schema: { hide: true } };

export async function consolePlugin(app: App, deps: ConsolePluginDeps, routes: readonly ConsoleRoute[]): Promise<void> {
  // Form posts are parsed in this scope only.
  await app.register(formbody);
  const anyOperator = operatorsExist(deps.db);
  app.addHook('onRequest', async (request, reply) => {
    setConsoleHeaders(reply);
    if (!(await anyOperator())) return reply.callNotFound();
  });
  app.get('/console/assets/console.css', CONSOLE_ROUTE_OPTIONS, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('Cache-Control', 'no-cache').send(CONSOLE_CSS),
  );
  const landing = routes.some((r) => r.method === 'GET' && r.url === '/console') ? '/console' : '/console/operators';
  consoleAccessRoutes(app, { access: deps.access, secureCookies: deps.secureCookies, landing });
  for (const route of routes) {
    const register = route.method === 'GET' ? app.get.bind(app) : app.post.bind(app);
    register(route.url, CONSOLE_ROUTE_OPTIONS, async (request, reply) => serveRoute(deps.access, route, request, reply));
  }
}

/** True once an operator exists (operators are never deleted, so a yes is kept; a no is asked again). */
function operatorsExist(db: Db): () => Promise<boolean> {
  let seen = false;
  return async () => {
    if (seen) return true;
    seen = (await db.selectFrom('operators').select('id').limit(1).executeTakeFirst()) !== undefined;
    return seen;
  };
}

async function serveRoute(access: ConsoleAccess, route: ConsoleRoute, request: FastifyRequest, reply: FastifyReply) {
  const token = readCookie(request, SESSION_COOKIE);
  const viewer = token ? await access.sessions.resume(token) : null;
  if (!viewer) return reply.redirect('/console/sign-in', 303);
  const form = route.method === 'POST' ? formFields(request.body) : {};
  if (route.method === 'POST') {
    if (!sameToken(form[CSRF_FIELD], viewer.csrfToken))
      return refusal(
        reply,
        viewer,
        'This form is out of date or did not come from this console session, so nothing was done. Reload the page and try again.',
      );
    delete form[CSRF_FIELD];
  }
  if (!roleAllows(viewer.role, route.role))
    return refusal(reply, viewer, `This needs the ${route.role} role; you are signed in as ${viewer.role}, so nothing was done.`);
  let answer: ConsoleAnswer;
  try {
    answer = await route.handle({
      viewer,
      params: stringsOf(request.params),
      query: stringsOf(request.query),
      form,
      requestId: request.id,
    });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const body = html`<p class="error" role="alert">${error.message}</p>`;
    return sendHtml(reply, statusOf(error.code), consoleDocument(viewer, { title: 'Not done', nav: null, body }));
  }
  return sendAnswer(reply, viewer, answer);
}

function sendAnswer(reply: FastifyReply, viewer: ConsoleViewer, answer: ConsoleAnswer) {
  if ('redirect' in answer) return reply.redirect(answer.redirect, 303);
  if ('csv' in answer)
    return reply
      .type('text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="${answer.csv.filename.replace(/[^A-Za-z0-9._-]/g, '_')}"`)
      .send(answer.csv.body);
  const { page } = answer;
  return sendHtml(reply, page.status ?? 200, consoleDocument(viewer, page));
}

function refusal(reply: FastifyReply, viewer: ConsoleViewer, message: string) {
  const body = html`<p class="error" role="alert">${message}</p>`;
  return sendHtml(reply, 403, consoleDocument(viewer, { title: 'Not allowed', nav: null, body }));
}

function stringsOf(value: unknown): Record<string, string> {
  return formFields(value) as Record<string, string>;
}
