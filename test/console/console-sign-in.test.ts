// The console's enrolment and sign-in in a real browser (DESIGN §18): the one-time link shows a QR
// code, the secret as text and an otpauth:// link; a password and a first code finish it, once.
// Sign-in takes name, password and code; a wrong part, a replayed code, a disabled operator and a
// po_ token are refused alike; 10 failures lock the operator for 15 minutes even with the right
// details; sign-out ends the session on the server; sessions expire.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { expectAccessible, launchBrowser, signIn } from './support/browser.js';
import {
  addOperator,
  csrfOf,
  currentCode,
  enrol,
  freshCode,
  HttpSession,
  OPERATOR_TOKEN,
  PASSWORD,
  signInHttp,
  wrongCode,
} from './support/operators.js';

let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({ OPERATOR_TOKEN }), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function freshPage(): Promise<Page> {
  await context?.close();
  context = await browser.newContext();
  page = await context.newPage();
  return page;
}

const REFUSED = /Those details were not accepted/;

describe('enrolment', () => {
  it('shows the QR code, the secret and the otpauth link, and takes a password and a first code, once', async () => {
    const dana = await addOperator(server, 'dana', 'admin');
    await freshPage();
    const response = await page.goto(server.url + dana.enrolmentPath);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await expect(page.locator('svg[role="img"]').count()).resolves.toBe(1);
    const secret = (await page.locator('#totp-secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const link = await page.getByRole('link', { name: /otpauth/ }).getAttribute('href');
    expect(link).toMatch(/^otpauth:\/\/totp\/peerpay:dana\?/);
    expect(link).toContain(`secret=${secret}`);
    await expectAccessible(page);

    // A short password is refused by the browser (minlength) and by the server, and nothing is
    // spent: the same secret is shown again.
    await expect(page.getByLabel('Password').getAttribute('minlength')).resolves.toBe('12');
    const client = new HttpSession(server.url);
    const form = csrfOf((await client.request('GET', dana.enrolmentPath)).text);
    const short = await client.request('POST', dana.enrolmentPath, {
      csrf: form,
      password: 'too short',
      code: currentCode(server, secret),
    });
    expect(short.status).toBe(400);
    expect(short.text).toContain('12 to 1024 characters');
    expect(short.text).toContain(`id="totp-secret">${secret}<`);

    // A wrong code is refused too.
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Code').fill(wrongCode(server, secret));
    await page.getByRole('button', { name: 'Finish enrolment' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('code');

    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Code').fill(await freshCode(server, secret));
    await page.getByRole('button', { name: 'Finish enrolment' }).click();
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
    await expect(page.getByRole('status').textContent()).resolves.toContain('Enrolment done');

    // The link is spent.
    const again = await page.goto(server.url + dana.enrolmentPath);
    expect(again?.status()).toBe(404);

    await signIn(page, server, { ...dana, secret });
    expect(new URL(page.url()).pathname).toMatch(/^\/console/);
    await expect(page.getByRole('button', { name: 'Sign out' }).count()).resolves.toBe(1);
    await expect(page.getByRole('link', { name: 'Operators' }).count()).resolves.toBe(1);
  });

  it('keeps the TOTP secret encrypted and the password hashed in the database', async () => {
    const erin = await enrol(server, await addOperator(server, 'erin', 'viewer'));
    const row = await server.deps.db
      .selectFrom('operators')
      .select(['password_hash', 'totp_secret'])
      .where('id', '=', erin.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(row.password_hash).not.toContain(PASSWORD);
    expect(row.totp_secret).toMatch(/^v1\./);
    expect(row.totp_secret).not.toContain(erin.secret);
  });
});

describe('sign-in', () => {
  it('has visible labels Name, Password and Code and passes axe', async () => {
    await freshPage();
    await page.goto(`${server.url}/console/sign-in`);
    for (const label of ['Name', 'Password', 'Code']) await expect(page.getByLabel(label, { exact: true }).count()).resolves.toBe(1);
    await expectAccessible(page);
  });

  it('refuses a wrong password, a wrong code and a replayed code with one message, and signs in with all three right', async () => {
    const fay = await enrol(server, await addOperator(server, 'fay', 'viewer'));
    await freshPage();
    await page.goto(`${server.url}/console/sign-in`);
    await page.getByLabel('Name').fill('fay');
    await page.getByLabel('Password').fill('not the password at all');
    await page.getByLabel('Code').fill(currentCode(server, fay.secret));
    await page.getByRole('button', { name: 'Sign in' }).click();
    const wrongPassword = await page.getByRole('alert').textContent();
    expect(wrongPassword).toMatch(REFUSED);

    await signIn(page, server, fay, wrongCode(server, fay.secret));
    expect(await page.getByRole('alert').textContent()).toBe(wrongPassword);

    const code = await freshCode(server, fay.secret);
    await signIn(page, server, fay, code);
    expect(new URL(page.url()).pathname).toBe('/console');
    await page.getByRole('button', { name: 'Sign out' }).click();
    // The same code again, in its window: refused.
    await signIn(page, server, fay, code);
    expect(await page.getByRole('alert').textContent()).toBe(wrongPassword);
  });

  it('locks the operator for 15 minutes after 10 failures, even with the right details', async () => {
    const gus = await enrol(server, await addOperator(server, 'gus', 'viewer'));
    const client = new HttpSession(server.url);
    const form = csrfOf((await client.request('GET', '/console/sign-in')).text);
    for (let i = 0; i < 10; i += 1) {
      const refused = await client.request('POST', '/console/sign-in', {
        csrf: form,
        name: 'gus',
        password: 'wrong wrong wrong',
        code: '000000',
      });
      expect(refused.status).toBe(401);
    }
    const locked = await client.request('POST', '/console/sign-in', {
      csrf: form,
      name: 'gus',
      password: PASSWORD,
      code: currentCode(server, gus.secret),
    });
    expect(locked.status).toBe(401);
    expect(locked.text).toMatch(REFUSED);
    const row = await server.deps.db.selectFrom('operators').select('locked_until').where('id', '=', gus.id).executeTakeFirstOrThrow();
    expect(row.locked_until!.getTime() - server.deps.clock.now().getTime()).toBeGreaterThan(14 * 60_000);
    expect(row.locked_until!.getTime() - server.deps.clock.now().getTime()).toBeLessThanOrEqual(15 * 60_000);
  });

  it('refuses a disabled operator and a po_ token', async () => {
    const hal = await enrol(server, await addOperator(server, 'hal', 'admin'));
    // A po_ token is not a password and opens nothing: no session cookie, no page.
    const client = new HttpSession(server.url);
    const form = csrfOf((await client.request('GET', '/console/sign-in')).text);
    const withToken = await client.request('POST', '/console/sign-in', {
      csrf: form,
      name: 'hal',
      password: hal.token,
      code: currentCode(server, hal.secret),
    });
    expect(withToken.status).toBe(401);
    const bearer = await fetch(`${server.url}/console/operators`, {
      headers: { authorization: `Bearer ${hal.token}` },
      redirect: 'manual',
    });
    expect(bearer.status).toBe(303);
    expect(bearer.headers.get('location')).toBe('/console/sign-in');

    const signedIn = await signInHttp(server, hal);
    const disabled = await server.request('POST', `/admin/operators/${hal.id}/disable`, { key: OPERATOR_TOKEN, body: { note: 'left' } });
    expect(disabled.status).toBe(200);
    // The open session ends at once, and a new sign-in is refused.
    expect((await signedIn.request('GET', '/console/operators')).status).toBe(303);
    const again = await client.request('POST', '/console/sign-in', {
      csrf: form,
      name: 'hal',
      password: PASSWORD,
      code: currentCode(server, hal.secret),
    });
    expect(again.status).toBe(401);
  });
});

describe('sessions', () => {
  it('sets the cookie HttpOnly and SameSite=Strict, and sign-out ends the session on the server', async () => {
    const ike = await enrol(server, await addOperator(server, 'ike', 'viewer'));
    const client = await signInHttp(server, ike);
    const stolen = client.cookie('peerpay_console')!;
    const answer = await client.request('GET', '/console/operators');
    expect(answer.status).toBe(200);
    for (const [name, value] of Object.entries({
      'content-security-policy': "default-src 'none'",
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    }))
      expect(answer.headers.get(name)).toContain(value);
    expect(answer.headers.get('content-security-policy')).not.toContain('script-src');

    const ivy = await enrol(server, await addOperator(server, 'ivy', 'viewer'));
    await freshPage();
    await signIn(page, server, ivy);
    const cookie = (await context.cookies()).find((c) => c.name === 'peerpay_console')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Strict');
    await page.getByRole('button', { name: 'Sign out' }).click();
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
    await expect(page.getByRole('status').textContent()).resolves.toContain('signed out');
    // The browser's cookie, replayed after sign-out: refused.
    const replay = await fetch(`${server.url}/console/operators`, {
      headers: { cookie: `peerpay_console=${cookie.value}` },
      redirect: 'manual',
    });
    expect(replay.status).toBe(303);
    // Another session is not affected.
    expect(stolen).not.toBe(cookie.value);
    expect((await client.request('GET', '/console/operators')).status).toBe(200);
  });

  it('ends a session after 30 minutes without a request', async () => {
    const jo = await enrol(server, await addOperator(server, 'jo', 'viewer'));
    await freshPage();
    await signIn(page, server, jo);
    expect(new URL(page.url()).pathname).toBe('/console');
    await server.request('POST', '/test-helpers/clock/advance', { body: { days: 1 } });
    await page.goto(`${server.url}/console/audit`);
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
  });
});
