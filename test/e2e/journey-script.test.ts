// `npm run journey` never moves the sandbox clock of a peerpay someone has running (it never moves
// back): pointed at one with BASE_URL, it leaves the clock where it found it and says that the ACH
// settlement is not checked there; without BASE_URL it runs on an instance of its own (the
// compiled service, a fresh DATA_DIR), checks the settlement there, and stops and removes it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, plainEnv, repoRoot } from '../helpers/built-service.js';
import { freePort } from '../helpers/free-port.js';
import { spawnMain, type MainProcess } from '../helpers/main-process.js';
import { PGLITE_PASS_ONLY, runsIf } from '../helpers/runs-if.js';

const HOUR_MS = 3600_000;

async function npmRunJourney(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn('npm', ['run', 'journey'], { cwd: repoRoot, env: plainEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  clearTimeout(timer);
  return { code, output };
}

/** The instance's sandbox time, as a new card link's expiry (24 hours on) shows it. */
async function sandboxNowMs(baseUrl: string): Promise<number> {
  const registered = await fetch(`${baseUrl}/agent/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `clock-${Date.now()}@example.com`, password: 'correct horse battery', name: 'Clock Reader' }),
  });
  const { apiKey } = (await registered.json()) as { apiKey: string };
  const link = await fetch(`${baseUrl}/agent/setup-link`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}` } });
  const { expiresAt } = (await link.json()) as { expiresAt: string };
  return Date.parse(expiresAt) - 24 * HOUR_MS;
}

beforeAll(() => ensureBuilt(), 180_000);

// One pass is enough: the journeys' own instance is PGlite whatever the suite runs on.
describe.runIf(runsIf(!process.env.DATABASE_URL, PGLITE_PASS_ONLY))(
  'npm run journey with BASE_URL (an instance someone has running)',
  () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-journey-theirs-'));
    let service: MainProcess;
    let baseUrl = '';

    beforeAll(async () => {
      const port = await freePort();
      baseUrl = `http://127.0.0.1:${port}`;
      service = spawnMain({ PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: undefined, JOB_INTERVAL_MS: '200' });
      await service.healthy(baseUrl);
    }, 120_000);

    afterAll(async () => {
      await service?.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }, 60_000);

    it('runs both journeys and leaves its sandbox clock where it found it, and says so', async () => {
      const before = await sandboxNowMs(baseUrl);
      const { code, output } = await npmRunJourney({ BASE_URL: baseUrl });
      expect(code, output.slice(-4000)).toBe(0);
      const after = await sandboxNowMs(baseUrl);
      // Only real time has passed: minutes at most, not the journey's 5 days.
      expect(after - before).toBeGreaterThanOrEqual(0);
      expect(after - before).toBeLessThan(HOUR_MS);
      expect(output).toContain('journey complete');
      expect(output).toContain('stablecoin journey complete');
      expect(output).toMatch(/sandbox clock is left where it was/);
      expect(output).not.toContain('sandbox clock moves 5 days');
    }, 300_000);
  },
);

describe.runIf(runsIf(!process.env.DATABASE_URL, PGLITE_PASS_ONLY))('npm run journey without BASE_URL', () => {
  it('runs on an instance of its own, checks the ACH settlement there, then stops it and removes its data', async () => {
    const { code, output } = await npmRunJourney({});
    expect(code, output.slice(-4000)).toBe(0);
    expect(output).toMatch(/on an instance of their own/);
    expect(output).toContain('ok  ACH status after 5 days = completed');
    expect(output).toContain('stablecoin journey complete');
    const dataDir = /DATA_DIR (\S+)/.exec(output)?.[1];
    expect(dataDir, 'the output names the instance’s DATA_DIR').toBeDefined();
    expect(fs.existsSync(dataDir!)).toBe(false);
    expect(output).toMatch(/instance stopped/);
  }, 300_000);
});
