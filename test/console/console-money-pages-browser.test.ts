// The console's account and money pages in a real browser (DESIGN §18): each page passes axe with
// no serious or critical violation for the role that sees the most on it (admin: every form shown);
// a viewer sees no action button; support freezes an account through the labelled form and lands
// on the account page showing the audit entry; admin refunds a card transfer the same way.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { send, setUp } from '../helpers/fiat.js';
import { accountIdOf, agentTransfer, fund } from '../helpers/stablecoin.js';
import { expectAccessible, launchBrowser, signIn } from './support/browser.js';
import { addOperator, enrol, OPERATOR_TOKEN, type TestOperator } from './support/operators.js';

type Enrolled = TestOperator & { secret: string };

let server: TestServer;
let browser: Browser;
let operators: Record<'viewer' | 'support' | 'admin', Enrolled>;
let payee: TestUser;
let payeeId: number;
let cardTransferId: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({ OPERATOR_TOKEN }), launchBrowser()]);
  const [viewer, support, admin] = await Promise.all(
    (['viewer', 'support', 'admin'] as const).map(async (role) => enrol(server, await addOperator(server, `pages-${role}`, role))),
  );
  operators = { viewer: viewer!, support: support!, admin: admin! };
  const payer = await registerUser(server);
  payee = await registerUser(server);
  payeeId = await accountIdOf(server, payee);
  await setUp(server, payer, '/agent/setup-link');
  const sent = await send(server, payer, { recipientHandle: payee.handle, amount: 30, currency: 'USD' });
  expect(sent.status).toBe(200);
  cardTransferId = sent.body.transfer.id;
  await fund(server, payer, 2_000_000n);
  expect((await agentTransfer(server, payer, { to: payee.handle, amount: 1, currency: 'USDC' })).status).toBe(200);
});

afterAll(async () => {
  await browser?.close();
  if (server) expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server?.close();
});

async function signedIn(role: keyof typeof operators): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, server, operators[role]);
  return page;
}

/** Fills an action form's note and confirmation (the form found by where it posts) and sends it. */
async function confirmAction(page: Page, actionEnding: string, note: string, button: string): Promise<void> {
  const form = page.locator(`form[action$="${actionEnding}"]`);
  await form.getByLabel('Note').fill(note);
  await form.getByRole('checkbox', { name: /I confirm/ }).check();
  await form.getByRole('button', { name: button }).click();
}

describe('every account and money page', () => {
  it('renders for admin with its navigation link current and passes axe', async () => {
    const page = await signedIn('admin');
    const pages: [string, string][] = [
      [`/console/accounts?q=${encodeURIComponent(payee.email)}`, 'Accounts'],
      [`/console/accounts/${payeeId}`, 'Accounts'],
      [`/console/transfers?q=${payee.handle}`, 'Transfers'],
      [`/console/transfers/${cardTransferId}`, 'Transfers'],
      ['/console/disputes', 'Disputes'],
      ['/console/withdrawals', 'Withdrawals'],
      ['/console/webhooks', 'Webhooks'],
    ];
    for (const [path, nav] of pages) {
      const response = await page.goto(server.url + path);
      expect(response?.status(), path).toBe(200);
      await expect(page.getByRole('link', { name: nav, exact: true }).getAttribute('aria-current'), path).resolves.toBe('page');
      await expectAccessible(page);
    }
    await page.context().close();
  });
});

describe('the actions by role', () => {
  it('shows a viewer no action button', async () => {
    const page = await signedIn('viewer');
    await page.goto(`${server.url}/console/accounts/${payeeId}`);
    await expect(page.getByRole('button', { name: 'Freeze account' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Set limits' }).count()).resolves.toBe(0);
    await page.goto(`${server.url}/console/transfers/${cardTransferId}`);
    await expect(page.getByRole('button', { name: 'Refund transfer' }).count()).resolves.toBe(0);
    await page.context().close();
  });

  it('lets support freeze through the labelled form and shows the audit entry written, and no refund', async () => {
    const page = await signedIn('support');
    await page.goto(`${server.url}/console/accounts/${payeeId}`);
    await page.locator('form[action$="/freeze"]').getByLabel('Scope', { exact: true }).selectOption('all');
    await confirmAction(page, '/freeze', 'browser freeze check', 'Freeze account');
    expect(new URL(page.url()).pathname).toBe(`/console/accounts/${payeeId}`);
    const entry = page.getByRole('row').filter({ hasText: 'browser freeze check' });
    await expect(entry.textContent()).resolves.toContain('account.freeze');
    await expect(page.getByRole('button', { name: 'Unfreeze account' }).count()).resolves.toBe(1);
    await expectAccessible(page);
    await confirmAction(page, '/unfreeze', 'browser unfreeze', 'Unfreeze account');
    await expect(page.getByRole('row').filter({ hasText: 'browser unfreeze' }).count()).resolves.toBe(1);
    await page.goto(`${server.url}/console/transfers/${cardTransferId}`);
    await expect(page.getByRole('button', { name: 'Refund transfer' }).count()).resolves.toBe(0);
    await page.context().close();
  });

  it('lets admin refund a card transfer and shows the refund and its audit entry', async () => {
    const page = await signedIn('admin');
    await page.goto(`${server.url}/console/transfers/${cardTransferId}`);
    await page.getByLabel(/^Amount in USD/).fill('2.50');
    await page.getByLabel('Reason', { exact: true }).selectOption('duplicate');
    await confirmAction(page, '/refund', 'browser refund check', 'Refund transfer');
    expect(new URL(page.url()).pathname).toBe(`/console/transfers/${cardTransferId}`);
    await expect(page.getByRole('row').filter({ hasText: 'browser refund check' }).textContent()).resolves.toContain('transfer.refund');
    await expect(page.getByRole('table', { name: 'Refunds' }).textContent()).resolves.toContain('2.50 USD');
    await page.context().close();
  });
});
