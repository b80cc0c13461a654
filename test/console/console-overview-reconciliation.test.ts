// The Overview and Reconciliation pages in a real browser (DESIGN §18), signed in as a viewer (the
// lowest role may read both): Overview shows the custody table and draws its charts as inline SVG
// from a snapshot; Reconciliation takes its date range from the query, lists no difference on a
// quiet sandbox day, refuses a malformed range with 400, and downloads its lines as CSV. axe-core
// finds no serious or critical violation on either page.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { expectAccessible, launchBrowser, signIn } from './support/browser.js';
import { addOperator, enrol, OPERATOR_TOKEN, type HttpSession } from './support/operators.js';
import { HttpSession as Session } from './support/operators.js';

let server: TestServer;
let browser: Browser;
let page: Page;
let http: HttpSession;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({ OPERATOR_TOKEN }), launchBrowser()]);
  const viewer = await enrol(server, await addOperator(server, 'vera', 'viewer'));
  page = await (await browser.newContext()).newPage();
  await signIn(page, server, viewer);
  const cookie = (await page.context().cookies()).find((c) => c.name === 'peerpay_console')!;
  http = Session.withCookie(server.url, cookie.name, cookie.value);
  await server.deps.snapshots.takeIfDue();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('console Overview and Reconciliation', () => {
  it('Overview: the figures per token and the charts, accessible', async () => {
    await page.goto(`${server.url}/console`);
    await expect(page.getByRole('heading', { name: 'Custody per token' }).count()).resolves.toBe(1);
    await expect(page.getByRole('link', { name: 'Overview' }).getAttribute('aria-current')).resolves.toBe('page');
    await expect(page.getByRole('img', { name: 'Hot wallet, USDC, last 24 hours' }).count()).resolves.toBe(1);
    await expect(page.getByRole('img', { name: 'Webhook failures per day, last 30 days' }).count()).resolves.toBe(1);
    await expectAccessible(page);
  });

  it('Reconciliation: the range from the query, no difference on a quiet day, the CSV, accessible', async () => {
    const today = server.deps.clock.now().toISOString().slice(0, 10);
    await page.goto(`${server.url}/console`);
    await page.getByRole('link', { name: 'Reconciliation' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('No difference.');
    await expect(page.getByLabel('From').inputValue()).resolves.toBe(today);
    await expectAccessible(page);

    const csv = await http.request('GET', `/console/reconciliation.csv?from=${today}&to=${today}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="peerpay-reconciliation-${today}-${today}.csv"`);
    expect(csv.text).toBe('day,asset,kind,subject,expected,found,difference,note\r\n');

    const refused = await http.request('GET', '/console/reconciliation?from=2026-01-01&to=2026-03-01');
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('A report covers at most 31 days.');
  });

  it('without a session, neither page nor the CSV answers', async () => {
    const anonymous = new Session(server.url);
    for (const path of ['/console', '/console/reconciliation', '/console/reconciliation.csv']) {
      const answer = await anonymous.request('GET', path);
      expect(answer.status, path).toBe(303);
      expect(answer.location).toContain('/console/sign-in');
    }
  });
});
