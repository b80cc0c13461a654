// Console test support: operators made through the operator API, enrolled over plain HTTP (as a
// browser would post the enrolment form), and their TOTP codes computed here with otpauth.
import { Secret, TOTP } from 'otpauth';
import type { TestServer } from '../../helpers/test-server.js';

export const OPERATOR_TOKEN = 'operator-token-for-console-tests-0123456789';
export const PASSWORD = 'a long console password';

export interface TestOperator {
  id: string;
  name: string;
  role: 'viewer' | 'support' | 'admin';
  /** The `po_` API token. */
  token: string;
  /** The enrolment link's path (/console/enrol/…): the test server listens elsewhere than PUBLIC_URL says. */
  enrolmentPath: string;
  /** Set once enrolled. */
  secret?: string;
}

export async function addOperator(server: TestServer, name: string, role: TestOperator['role']): Promise<TestOperator> {
  const response = await server.request('POST', '/admin/operators', { key: OPERATOR_TOKEN, body: { name, role, note: `${name} joins` } });
  if (response.status !== 201) throw new Error(`operator not made: ${response.status} ${response.text}`);
  return {
    id: response.body.operator.id,
    name,
    role,
    token: response.body.token,
    enrolmentPath: new URL(response.body.enrolmentUrl).pathname,
  };
}

/** The server's time: the sandbox clock, which tests move. */
export const serverNow = (server: TestServer) => server.deps.clock.now();

const totp = (secret: string) => new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
const usedSteps = new Map<string, number>();

/**
 * A code the server accepts now and has not seen: the current step's, or the next one's (the server
 * allows one step of drift) when the current one was used; waits for the step to come when both were.
 */
export async function freshCode(server: TestServer, secret: string): Promise<string> {
  for (;;) {
    const now = serverNow(server).getTime();
    const current = Math.floor(now / 30_000);
    const step = Math.max(current, (usedSteps.get(secret) ?? -Infinity) + 1);
    if (step <= current + 1) {
      usedSteps.set(secret, step);
      return totp(secret).generate({ timestamp: step * 30_000 });
    }
    await new Promise((resolve) => setTimeout(resolve, (current + 1) * 30_000 - now + 50));
  }
}

/** The code of the current step, not marked used: for attempts refused before the code counts (a wrong password, a lock). */
export function currentCode(server: TestServer, secret: string): string {
  return totp(secret).generate({ timestamp: serverNow(server).getTime() });
}

/** A code that is wrong now (not the code of any step the server accepts). */
export function wrongCode(server: TestServer, secret: string): string {
  const now = serverNow(server).getTime();
  const accepted = new Set([-1, 0, 1].map((d) => totp(secret).generate({ timestamp: now + d * 30_000 })));
  for (let n = 0; ; n += 1) {
    const candidate = String((123456 + n * 7919) % 1_000_000).padStart(6, '0');
    if (!accepted.has(candidate)) return candidate;
  }
}

/** A tiny cookie-keeping client over real HTTP, for what the tests do without a browser. */
export class HttpSession {
  private readonly cookies = new Map<string, string>();
  constructor(private readonly base: string) {}

  async request(
    method: 'GET' | 'POST',
    path: string,
    form?: Record<string, string>,
  ): Promise<{ status: number; location: string | null; text: string; headers: Headers }> {
    const headers: Record<string, string> = { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(this.base + path, {
      method,
      headers,
      redirect: 'manual',
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      if (/Max-Age=0/.test(line)) this.cookies.delete(name!);
      else this.cookies.set(name!, value.join('='));
    }
    return { status: response.status, location: response.headers.get('location'), text: await response.text(), headers: response.headers };
  }

  /** Carries on a session a browser signed in (one TOTP step per sign-in: tests share sessions). */
  static withCookie(base: string, name: string, value: string): HttpSession {
    const session = new HttpSession(base);
    session.cookies.set(name, value);
    return session;
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }
}

/** The hidden CSRF field's value in a page. */
export function csrfOf(page: string): string {
  const match = /name="csrf" value="([^"]+)"/.exec(page);
  if (!match) throw new Error('no CSRF field on the page');
  return match[1]!;
}

/** Enrols the operator over HTTP: reads the secret from the enrolment page, sets PASSWORD, confirms with a code. */
export async function enrol(server: TestServer, operator: TestOperator): Promise<TestOperator & { secret: string }> {
  const client = new HttpSession(server.url);
  const page = await client.request('GET', operator.enrolmentPath);
  const secret = /id="totp-secret">([A-Z2-7]+)</.exec(page.text)?.[1];
  if (page.status !== 200 || !secret) throw new Error(`enrolment page: ${page.status}`);
  const done = await client.request('POST', operator.enrolmentPath, {
    csrf: csrfOf(page.text),
    password: PASSWORD,
    code: await freshCode(server, secret),
  });
  if (done.status !== 303) throw new Error(`enrolment refused: ${done.status} ${done.text}`);
  operator.secret = secret;
  return { ...operator, secret };
}

/** Signs in over HTTP; the session's client, ready for the console's pages. */
export async function signInHttp(server: TestServer, operator: TestOperator & { secret: string }): Promise<HttpSession> {
  const client = new HttpSession(server.url);
  const page = await client.request('GET', '/console/sign-in');
  const answer = await client.request('POST', '/console/sign-in', {
    csrf: csrfOf(page.text),
    name: operator.name,
    password: PASSWORD,
    code: await freshCode(server, operator.secret),
  });
  if (answer.status !== 303) throw new Error(`sign-in refused: ${answer.status}`);
  return client;
}
