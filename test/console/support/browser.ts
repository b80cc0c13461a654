// Browser test support: Debian's chromium (CHROMIUM_PATH, or /usr/bin/chromium as .ci/run installs
// it) driven headless by playwright-core, one browser per test file; and axe-core run in the page.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestServer } from '../../helpers/test-server.js';
import { freshCode, PASSWORD, type TestOperator } from './operators.js';

export function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!fs.existsSync(path))
    throw new Error(`No chromium at ${path}: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH`);
  return path;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}

/** Signs in through the sign-in form, by its visible labels. */
export async function signIn(page: Page, server: TestServer, operator: TestOperator & { secret: string }, code?: string): Promise<void> {
  await page.goto(`${server.url}/console/sign-in`);
  await page.getByLabel('Name').fill(operator.name);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByLabel('Code').fill(code ?? (await freshCode(server, operator.secret)));
  await page.getByRole('button', { name: 'Sign in' }).click();
}

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core in the page (evaluated through the DevTools protocol, so the page's CSP, which
 * allows no script, stays on) and fails on any serious or critical violation.
 */
export async function expectAccessible(page: Page): Promise<void> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const result = await (
      globalThis as unknown as {
        axe: {
          run(): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown }> }> }>;
        };
      }
    ).axe.run();
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => JSON.stringify(n.target)),
    }));
  });
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, `${page.url()}: ${JSON.stringify(serious, null, 1)}`).toEqual([]);
}
