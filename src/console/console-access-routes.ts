// Sign-in, sign-out and enrolment (DESIGN §18). The sign-in and enrolment forms exist before any
// session, so their CSRF check is a double submit: a random value in a SameSite=Strict cookie and
// the same value in the form. Sign-out is a POST with the session's CSRF token and ends the session
// on the server.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../http/types.js';
import type { ConsoleEnrolment } from './console-enrolment.js';
import type { ConsoleSessions } from './console-sessions.js';
import { SIGN_IN_REFUSED, type ConsoleSignIn } from './console-sign-in.js';
import { publicDocument } from './console-layout.js';
import { CSRF_FIELD } from './forms.js';
import { html } from './html.js';
import { formFields, formToken, readCookie, sameToken, sendHtml, setCookie, FORM_COOKIE, SESSION_COOKIE } from './console-http.js';
import { enrolBody, enrolmentGoneBody, signInBody } from './pages/access-pages.js';

/** What signing in, out and enrolling use (built once in the composition root). */
export interface ConsoleAccess {
  sessions: ConsoleSessions;
  signIn: ConsoleSignIn;
  enrolment: ConsoleEnrolment;
}

export interface ConsoleAccessRoutesDeps {
  access: ConsoleAccess;
  secureCookies: boolean;
  /** Where a signed-in operator starts. */
  landing: string;
}

const OPTIONS = { config: { auth: 'public' as const }, schema: { hide: true } };

const NOTICES: Record<string, string> = {
  out: 'You are signed out.',
  enrolled: 'Enrolment done. Sign in with your name, your password and the code your app shows now.',
  expired: 'Your session has ended. Sign in again.',
};

export function consoleAccessRoutes(app: App, deps: ConsoleAccessRoutesDeps): void {
  const cookies = { secure: deps.secureCookies };
  const refusedForm = (reply: FastifyReply) =>
    sendHtml(
      reply,
      403,
      publicDocument(
        'Not allowed',
        html`<p class="error" role="alert">This form is out of date, so nothing was done. <a href="/console/sign-in">Start again</a>.</p>`,
      ),
    );

  app.get('/console/sign-in', OPTIONS, async (request, reply) => {
    const query = formFields(request.query);
    const notice = query.notice === undefined ? undefined : NOTICES[query.notice];
    return sendHtml(reply, 200, publicDocument('Sign in', signInBody(formToken(request, reply, cookies), notice ? { notice } : {})));
  });

  app.post('/console/sign-in', OPTIONS, async (request, reply) => {
    const form = formFields(request.body);
    if (!sameToken(form[CSRF_FIELD], readCookie(request, FORM_COOKIE))) return refusedForm(reply);
    const operatorId = await deps.access.signIn.signIn({ name: form.name ?? '', password: form.password ?? '', code: form.code ?? '' });
    if (operatorId === null)
      return sendHtml(reply, 401, publicDocument('Sign in', signInBody(formToken(request, reply, cookies), { error: SIGN_IN_REFUSED })));
    setCookie(reply, SESSION_COOKIE, await deps.access.sessions.start(operatorId), cookies);
    return reply.redirect(deps.landing, 303);
  });

  app.post('/console/sign-out', OPTIONS, async (request, reply) => {
    const token = readCookie(request, SESSION_COOKIE);
    const viewer = token ? await deps.access.sessions.resume(token) : null;
    if (!token || !viewer) return reply.redirect('/console/sign-in?notice=expired', 303);
    if (!sameToken(formFields(request.body)[CSRF_FIELD], viewer.csrfToken)) return refusedForm(reply);
    await deps.access.sessions.end(token);
    setCookie(reply, SESSION_COOKIE, null, cookies);
    return reply.redirect('/console/sign-in?notice=out', 303);
  });

  enrolmentRoutes(app, deps.access.enrolment, cookies, refusedForm);
}

function enrolmentRoutes(
  app: App,
  enrolment: ConsoleEnrolment,
  cookies: { secure: boolean },
  refusedForm: (reply: FastifyReply) => FastifyReply,
): void {
  const params = { type: 'object', properties: { token: { type: 'string', maxLength: 200 } }, required: ['token'] } as const;
  const options = { ...OPTIONS, schema: { ...OPTIONS.schema, params } };
  const tokenOf = (request: FastifyRequest) => (request.params as { token: string }).token;

  app.get('/console/enrol/:token', options, async (request, reply) => {
    const token = tokenOf(request);
    const link = await enrolment.open(token);
    if (link.state !== 'open')
      return sendHtml(reply, link.state === 'expired' ? 410 : 404, publicDocument('Enrolment', enrolmentGoneBody(link.state)));
    const formValue = formToken(request, reply, cookies);
    return sendHtml(
      reply,
      200,
      publicDocument('Enrolment', enrolBody({ token, formToken: formValue, operatorName: link.operatorName, secret: link.secret })),
    );
  });

  app.post('/console/enrol/:token', options, async (request, reply) => {
    const token = tokenOf(request);
    const form = formFields(request.body);
    if (!sameToken(form[CSRF_FIELD], readCookie(request, FORM_COOKIE))) return refusedForm(reply);
    const result = await enrolment.complete(token, { password: form.password ?? '', code: form.code ?? '' });
    if (result.state === 'enrolled') return reply.redirect('/console/sign-in?notice=enrolled', 303);
    if (result.state === 'unknown' || result.state === 'expired')
      return sendHtml(reply, result.state === 'expired' ? 410 : 404, publicDocument('Enrolment', enrolmentGoneBody(result.state)));
    const formValue = formToken(request, reply, cookies);
    const error = result.state === 'refused' ? result.reason : undefined;
    const body = enrolBody({
      token,
      formToken: formValue,
      operatorName: result.operatorName,
      secret: result.secret,
      ...(error ? { error } : {}),
    });
    return sendHtml(reply, 400, publicDocument('Enrolment', body));
  });
}
