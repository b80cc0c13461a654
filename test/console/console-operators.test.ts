// The Operators and Audit log pages in a real browser (DESIGN §18): admins add, disable and reset
// the TOTP of operators through forms that state their consequence and ask for a note and a
// confirmation, and each shows the audit entry it wrote; a viewer sees no such form, and a forged
// POST is refused with 403 and changes nothing; a POST with a wrong CSRF token changes nothing.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { expectAccessible, launchBrowser, signIn } from './support/browser.js';
import {
  addOperator,
  csrfOf,
  currentCode,
  enrol,
  HttpSession,
  OPERATOR_TOKEN,
  PASSWORD,
  signInHttp,
  type TestOperator,
} from './support/operators.js';

let server: TestServer;
let browser: Browser;
let page: Page;
let admin: TestOperator & { secret: string };
let viewer: TestOperator & { secret: string };
/** The admin's and the viewer's sessions, over plain HTTP (a TOTP code signs in once, so sessions are shared). */
let adminHttp: HttpSession;
let viewerPage: Page;
let viewerHttp: HttpSession;

async function sessionOf(target: Page): Promise<HttpSession> {
  const cookie = (await target.context().cookies()).find((c) => c.name === 'peerpay_console')!;
  return HttpSession.withCookie(server.url, cookie.name, cookie.value);
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({ OPERATOR_TOKEN }), launchBrowser()]);
  admin = await enrol(server, await addOperator(server, 'olga', 'admin'));
  viewer = await enrol(server, await addOperator(server, 'vic', 'viewer'));
  page = await (await browser.newContext()).newPage();
  await signIn(page, server, admin);
  adminHttp = await sessionOf(page);
  viewerPage = await (await browser.newContext()).newPage();
  await signIn(viewerPage, server, viewer);
  viewerHttp = await sessionOf(viewerPage);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const operatorRow = async (name: string) =>
  server.deps.db.selectFrom('operators').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
const auditCount = async () =>
  Number(
    (
      await server.deps.db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('Operators, as an admin', () => {
  it('lists operators with the navigation marked, and passes axe', async () => {
    await page.goto(`${server.url}/console/operators`);
    await expect(page.getByRole('link', { name: 'Operators' }).getAttribute('aria-current')).resolves.toBe('page');
    await expect(page.getByRole('link', { name: 'Audit log' }).getAttribute('aria-current')).resolves.toBeNull();
    await expect(page.getByRole('cell', { name: 'vic', exact: true }).count()).resolves.toBe(1);
    await expect(page.title()).resolves.toBe('Operators · peerpay console');
    await expectAccessible(page);
  });

  it('adds an operator, showing its token and enrolment link once, and the audit entry', async () => {
    await page.goto(`${server.url}/console/operators`);
    await page.getByLabel('Operator name').fill('nina');
    await page.getByLabel('Role').selectOption('support');
    const form = page.locator('form[action="/console/operators"]');
    await expect(form.locator('.consequence').textContent()).resolves.toContain('shown once');
    await form.getByLabel('Note').fill('nina joins support');
    await form.getByLabel(/I confirm/).check();
    await form.getByRole('button', { name: 'Add operator' }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe('Operator nina added');
    await expect(page.locator('code.secret').textContent()).resolves.toMatch(/^po_[0-9A-Za-z]{43}$/);
    const link = await page.locator('a.secret').getAttribute('href');
    expect(link).toMatch(/\/console\/enrol\/[0-9A-Za-z]+$/);
    const entry = page.locator('tbody tr');
    await expect(entry.count()).resolves.toBe(1);
    await expect(entry.textContent()).resolves.toMatch(/olga\s*operator\.create.*nina joins support/s);
    expect((await operatorRow('nina')).role).toBe('support');
    await expectAccessible(page);
  });

  it('refuses an action without a note or the confirmation, and changes nothing', async () => {
    const client = adminHttp;
    const csrf = csrfOf((await client.request('GET', '/console/operators')).text);
    const before = await auditCount();
    const noNote = await client.request('POST', '/console/operators', { csrf, name: 'nobody', role: 'viewer', note: ' ', confirm: 'yes' });
    expect(noNote.status).toBe(400);
    expect(noNote.text).toContain('A note is required');
    const unconfirmed = await client.request('POST', '/console/operators', { csrf, name: 'nobody', role: 'viewer', note: 'why' });
    expect(unconfirmed.status).toBe(400);
    expect(await auditCount()).toBe(before);
    await expect(
      server.deps.db.selectFrom('operators').where('name', '=', 'nobody').select('id').executeTakeFirst(),
    ).resolves.toBeUndefined();
  });

  it('disables an operator and lands on the audit entry it wrote', async () => {
    const gone = await addOperator(server, 'gone', 'viewer');
    await page.goto(`${server.url}/console/operators`);
    await page.getByText('Actions for gone', { exact: true }).click();
    const form = page.locator(`form[action="/console/operators/${gone.id}/disable"]`);
    await form.getByLabel('Note').fill('left the team');
    await form.getByLabel(/I confirm/).check();
    await form.getByRole('button', { name: 'Disable gone' }).click();
    const url = new URL(page.url());
    expect(url.pathname).toBe('/console/audit');
    expect(url.searchParams.get('target')).toBe(gone.id);
    const first = page.locator('tbody tr').first();
    await expect(first.textContent()).resolves.toMatch(/olga\s*operator\.disable.*left the team/s);
    expect((await operatorRow('gone')).disabled_at).not.toBeNull();
    await expect(page.getByRole('link', { name: 'Audit log' }).getAttribute('aria-current')).resolves.toBe('page');
    await expectAccessible(page);
  });

  it('resets an operator’s TOTP: its sessions end, a new enrolment link works, the old secret does not', async () => {
    const rae = await enrol(server, await addOperator(server, 'rae', 'viewer'));
    const raeSession = await signInHttp(server, rae);
    await page.goto(`${server.url}/console/operators`);
    await page.getByText('Actions for rae', { exact: true }).click();
    const form = page.locator(`form[action="/console/operators/${rae.id}/reset-totp"]`);
    await form.getByLabel('Note').fill('lost phone');
    await form.getByLabel(/I confirm/).check();
    await form.getByRole('button', { name: 'Reset TOTP of rae' }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe('TOTP of rae reset');
    await expect(page.locator('tbody tr').textContent()).resolves.toMatch(/olga\s*operator\.reset_totp.*lost phone/s);
    const link = new URL((await page.locator('a.secret').getAttribute('href'))!).pathname;
    expect((await raeSession.request('GET', '/console/operators')).status).toBe(303);
    // The old password and secret open nothing any more.
    const stranger = new HttpSession(server.url);
    const signInPage = await stranger.request('GET', '/console/sign-in');
    const refused = await stranger.request('POST', '/console/sign-in', {
      csrf: csrfOf(signInPage.text),
      name: 'rae',
      password: PASSWORD,
      code: currentCode(server, rae.secret),
    });
    expect(refused.status).toBe(401);
    const row = await operatorRow('rae');
    expect(row.totp_secret).toBeNull();
    expect(row.password_hash).toBeNull();
    const again = await enrol(server, { ...rae, enrolmentPath: link });
    expect(again.secret).not.toBe(rae.secret);
    expect((await (await signInHttp(server, again)).request('GET', '/console/operators')).status).toBe(200);
  });
});

describe('refusals', () => {
  it('shows a viewer no admin form, and refuses its forged POST with 403, changing nothing', async () => {
    await viewerPage.goto(`${server.url}/console/operators`);
    await expect(viewerPage.locator('form.action').count()).resolves.toBe(0);
    await expect(viewerPage.getByRole('button', { name: /Disable|Reset|Add operator/ }).count()).resolves.toBe(0);
    await expectAccessible(viewerPage);

    const client = viewerHttp;
    const csrf = csrfOf((await client.request('GET', '/console/operators')).text);
    const before = await auditCount();
    const forged = await client.request('POST', `/console/operators/${admin.id}/disable`, { csrf, note: 'takeover', confirm: 'yes' });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain('needs the admin role');
    const added = await client.request('POST', '/console/operators', { csrf, name: 'mallory', role: 'admin', note: 'x', confirm: 'yes' });
    expect(added.status).toBe(403);
    expect(await auditCount()).toBe(before);
    expect((await operatorRow('olga')).disabled_at).toBeNull();
    await expect(
      server.deps.db.selectFrom('operators').where('name', '=', 'mallory').select('id').executeTakeFirst(),
    ).resolves.toBeUndefined();
  });

  it('refuses a POST with a wrong or missing CSRF token with 403, changing nothing', async () => {
    const client = adminHttp;
    const target = await addOperator(server, 'csrf-target', 'viewer');
    const before = await auditCount();
    for (const csrf of ['wrong', '']) {
      const answer = await client.request('POST', `/console/operators/${target.id}/disable`, { csrf, note: 'forged', confirm: 'yes' });
      expect(answer.status).toBe(403);
      expect(answer.text).toContain('nothing was done');
    }
    const withoutField = await client.request('POST', `/console/operators/${target.id}/disable`, { note: 'forged', confirm: 'yes' });
    expect(withoutField.status).toBe(403);
    expect(await auditCount()).toBe(before);
    expect((await operatorRow('csrf-target')).disabled_at).toBeNull();
    // Sign-out with a wrong token does not end the session.
    expect((await client.request('POST', '/console/sign-out', { csrf: 'wrong' })).status).toBe(403);
    expect((await client.request('GET', '/console/operators')).status).toBe(200);
  });
});

describe('Audit log', () => {
  it('filters by operator and target, pages, and passes axe', async () => {
    await page.goto(`${server.url}/console/audit`);
    await expect(page.getByRole('link', { name: 'Audit log' }).getAttribute('aria-current')).resolves.toBe('page');
    await page.getByLabel('Operator').fill('olga');
    await page.getByRole('button', { name: 'Filter' }).click();
    const operators = await page.locator('tbody tr td:nth-child(3)').allTextContents();
    expect(operators.length).toBeGreaterThan(0);
    expect(new Set(operators)).toEqual(new Set(['olga']));
    await page.goto(`${server.url}/console/audit?target=${viewer.id}`);
    const targets = await page.locator('tbody tr td:nth-child(5)').allTextContents();
    expect(targets).toEqual([viewer.id]);
    await expectAccessible(page);
    // Paging: 50 at most a page, and the next page starts after the last one shown.
    for (let i = 0; i < 50; i += 1) await addOperator(server, `bulk${i}`, 'viewer');
    await page.goto(`${server.url}/console/audit`);
    const ids = (await page.locator('tbody tr td:first-child').allTextContents()).map(Number);
    expect(ids).toHaveLength(50);
    await page.getByRole('link', { name: 'Next page' }).click();
    const next = (await page.locator('tbody tr td:first-child').allTextContents()).map(Number);
    expect(next[0]).toBe(ids[49]! + 1);
  });

  it('sends a browser without a session to the sign-in page', async () => {
    const stranger = await (await browser.newContext()).newPage();
    await stranger.goto(`${server.url}/console/audit`);
    expect(new URL(stranger.url()).pathname).toBe('/console/sign-in');
  });
});
