// npm run docs:console: a PNG of each operator console page in docs/console/, for the README.
// Starts peerpay in sandbox mode in this process (a fresh DATA_DIR, removed after) with its jobs,
// gives it some data (the fiat and stablecoin journeys, a few operators and a freeze), enrols an
// admin through its one-time link as a person would, signs in with a TOTP code computed here, and
// photographs every page of the navigation that answers (pages land one by one) with Debian's
// chromium (CHROMIUM_PATH, or /usr/bin/chromium).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { chromium, type Page } from 'playwright-core';
import { loadConfig } from '../src/config.js';
import { createDeps } from '../src/deps.js';
import { buildApp } from '../src/app.js';
import { startJobs } from '../src/jobs/job-runner.js';
import { CONSOLE_NAV } from '../src/console/console-route.js';
import net from 'node:net';
import { runJourney, runStablecoinJourney } from './journey.js';

const OUT = path.resolve(import.meta.dirname, '..', 'docs', 'console');
const OPERATOR_TOKEN = 'screenshots-bootstrap-operator-token-0123456789';
const PASSWORD = 'screenshots password';

async function startSandbox() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-screenshots-'));
  // The port is known before the configuration: the links peerpay hands out (PUBLIC_URL) must reach it.
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    PORT: String(port),
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    PEERPAY_MODE: 'sandbox',
    LOG_LEVEL: 'warn',
    OPERATOR_TOKEN,
  });
  const deps = await createDeps(config);
  const app = await buildApp(deps);
  await app.listen({ port, host: '127.0.0.1' });
  const jobs = startJobs(deps, app.log);
  return {
    url,
    now: () => deps.clock.now(),
    async stop() {
      await app.close();
      await jobs.stop();
      await deps.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function api(url: string, method: string, route: string, body: unknown): Promise<any> {
  const response = await fetch(url + route, {
    method,
    headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** Data for the pages to show: the journeys' accounts and movements, operators, a freeze. */
async function seed(url: string): Promise<{ enrolPath: string; accountId: string }> {
  const quiet = () => {};
  const { recipientHandle } = await runJourney(url, { sandboxClock: 'advance' }, quiet);
  await runStablecoinJourney(url, quiet).catch((error: unknown) => console.warn(`stablecoin journey skipped: ${String(error)}`));
  const found = await api(url, 'GET', `/admin/accounts?q=${encodeURIComponent(recipientHandle)}`, undefined);
  await api(url, 'POST', `/admin/accounts/${found.accounts[0].id}/freeze`, { scope: 'payouts', note: 'Card dispute under review' });
  await api(url, 'POST', '/admin/operators', { name: 'sam.support', role: 'support', note: 'Support rota' });
  await api(url, 'POST', '/admin/operators', { name: 'vera', role: 'viewer', note: 'Finance, read only' });
  const made = await api(url, 'POST', '/admin/operators', { name: 'ada', role: 'admin', note: 'Runs the console' });
  return { enrolPath: new URL(made.enrolmentUrl).pathname, accountId: String(found.accounts[0].id) };
}

/** The pages behind the navigation: an account (with its actions) and one of its card transfers. */
async function photographDetails(page: Page, url: string, accountId: string): Promise<void> {
  await page.goto(`${url}/console/accounts/${accountId}`);
  await page.screenshot({ path: path.join(OUT, 'account.png'), fullPage: true });
  console.log('wrote docs/console/account.png');
  const transfer = page.locator('a[href^="/console/transfers/tr_"]').first();
  if ((await transfer.count()) === 0) return;
  await page.goto(url + (await transfer.getAttribute('href'))!);
  await page.screenshot({ path: path.join(OUT, 'transfer.png'), fullPage: true });
  console.log('wrote docs/console/transfer.png');
}

/** Enrols through the link as a person would, then signs in: the code comes from the page's secret. */
async function enrolAndSignIn(page: Page, url: string, enrolPath: string, now: () => Date): Promise<void> {
  await page.goto(url + enrolPath);
  await page.screenshot({ path: path.join(OUT, 'enrolment.png'), fullPage: true });
  const secret = (await page.locator('#totp-secret').textContent())!.trim();
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByLabel('Code').fill(totp.generate({ timestamp: now().getTime() }));
  await page.getByRole('button', { name: 'Finish enrolment' }).click();
  await page.screenshot({ path: path.join(OUT, 'sign-in.png'), fullPage: true });
  await page.getByLabel('Name').fill('ada');
  await page.getByLabel('Password').fill(PASSWORD);
  // The next step's code: the enrolment used this one, and one step of drift is allowed.
  await page.getByLabel('Code').fill(totp.generate({ timestamp: now().getTime() + 30_000 }));
  await page.getByRole('button', { name: 'Sign in' }).click();
  if (new URL(page.url()).pathname === '/console/sign-in') throw new Error('sign-in refused');
}

async function main(): Promise<void> {
  fs.mkdirSync(OUT, { recursive: true });
  const sandbox = await startSandbox();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    const { enrolPath, accountId } = await seed(sandbox.url);
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await enrolAndSignIn(page, sandbox.url, enrolPath, sandbox.now);
    for (const link of CONSOLE_NAV) {
      const response = await page.goto(sandbox.url + link.path);
      const file = `${link.name.toLowerCase().replace(/\s+/g, '-')}.png`;
      if (response?.status() === 404) {
        console.log(`skipped ${link.name}: ${link.path} is not served yet`);
        continue;
      }
      await page.screenshot({ path: path.join(OUT, file), fullPage: true });
      console.log(`wrote docs/console/${file}`);
    }
    await photographDetails(page, sandbox.url, accountId);
  } finally {
    await browser.close();
    await sandbox.stop();
  }
}

main().catch((error: unknown) => {
  console.error(`console screenshots failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});
