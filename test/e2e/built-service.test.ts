// The compiled service (dist/, what `npm start` runs) at start: on a platform without an anvil
// build it stops with one line before anything is written; a first start takes its database from
// the template and keeps DATA_DIR private; without a terminal it prints JSON lines only, the
// listening line naming its URL and how long the start took; with LOG_FORMAT=json under a terminal,
// the same; and a second start over the same DATA_DIR is quick (the time is printed).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distMain, ensureBuilt, hasScript, npmStart, plainEnv, plainText, repoRoot } from '../helpers/built-service.js';
import { runsIf, PGLITE_PASS_ONLY } from '../helpers/runs-if.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-built-'));
beforeAll(() => ensureBuilt(), 180_000);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** node dist/main.js with process.platform or process.arch replaced before peerpay's code runs. */
async function runOn(
  where: { platform?: string; arch?: string },
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const preload = Object.entries(where)
    .map(([name, value]) => `Object.defineProperty(process, ${JSON.stringify(name)}, { value: ${JSON.stringify(value)} });`)
    .join('');
  const child = spawn(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(preload)}`, distMain], {
    cwd: root,
    env: plainEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  return { code, stdout, stderr };
}

describe('on a platform anvil is not built for', () => {
  it.each([
    ['linux', 'ia32'],
    ['freebsd', 'x64'],
    ['win32', 'arm64'],
  ])('%s-%s: one line on stderr, exit 1, DATA_DIR never created', async (platform, arch) => {
    const where = { platform, arch };
    const dataDir = path.join(root, `never-${where.platform}-${where.arch}`);
    const { code, stdout, stderr } = await runOn(where, { DATA_DIR: dataDir, PORT: '0', LOG_FORMAT: 'pretty' });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.split('\n').filter((line) => line !== '')).toEqual([
      `peerpay: the embedded chain is not available on ${where.platform}-${where.arch}; set CHAIN_RPC_URL (with USDC_ADDRESS and EURC_ADDRESS) to the JSON-RPC URL of an EVM node instead`,
    ]);
    expect(fs.existsSync(dataDir)).toBe(false);
    expect(fs.readdirSync(root).filter((name) => name === 'data')).toEqual([]);
  });
});

// PGlite in DATA_DIR, as a reader runs it: in the PGlite pass only.
describe.runIf(runsIf(!process.env.DATABASE_URL, PGLITE_PASS_ONLY))('npm start, twice over one DATA_DIR', () => {
  const dataDir = path.join(root, 'data');

  it('without a terminal: JSON lines only, the listening line names the URL; LOG_FORMAT=json under a terminal: the same', async () => {
    const first = npmStart({ env: { PORT: '0', DATA_DIR: dataDir }, terminal: false });
    let firstMs: number;
    let firstCode: number | null;
    try {
      const firstStarted = Date.now();
      const url = await first.url();
      firstMs = Date.now() - firstStarted;
      expect((await fetch(`${url}/health/ready`)).status).toBe(200);
    } finally {
      firstCode = await first.stop();
    }
    // SIGINT to npm and peerpay, as a terminal's Ctrl+C: peerpay shuts down; npm ends as interrupted.
    expect([0, 130, null]).toContain(firstCode);
    expect(first.output()).toContain('"msg":"shutting down: no new connections');
    // The database came from the template npm ci made (dist/pglite-template.tar.gz): private all the same.
    const loose = fs
      .readdirSync(dataDir, { recursive: true, withFileTypes: true })
      .filter((entry) => (fs.statSync(path.join(entry.parentPath, entry.name)).mode & 0o077) !== 0)
      .map((entry) => path.join(entry.parentPath, entry.name));
    expect(loose).toEqual([]);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    const lines = first
      .output()
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('>'));
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    const listening = lines.map((line) => JSON.parse(line)).find((record) => record.msg === 'peerpay is listening');
    expect(listening).toMatchObject({ mode: 'sandbox', database: 'pglite' });
    expect(listening.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(listening.url).not.toBe('http://127.0.0.1:0');
    expect(listening.startUpMs).toBeGreaterThan(0);

    const second = npmStart({ env: { PORT: '0', DATA_DIR: dataDir, LOG_FORMAT: 'json' }, terminal: hasScript() });
    let secondMs: number;
    try {
      const secondStarted = Date.now();
      const secondUrl = await second.url();
      secondMs = Date.now() - secondStarted;
      expect((await fetch(`${secondUrl}/health/ready`)).status).toBe(200);
      const text = plainText(second.output());
      expect(text).not.toContain('is ready in sandbox mode');
      expect(text).toMatch(/^\{"level":30,.*"msg":"peerpay is listening"\}$/m);
    } finally {
      await second.stop();
    }
    console.log(
      `npm start until it printed its URL: first start ${firstMs} ms, second start ${secondMs} ms (load average ${os.loadavg()[0]!.toFixed(1)})`,
    );
  }, 240_000);
});

it('keeps the build where npm start looks for it', () => {
  // node, its flags (decision 0068: test/unit/start-command.test.ts), then the build's entry point.
  expect(JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).scripts.start).toMatch(/^node( --\S+)* dist\/main\.js$/);
  expect(fs.existsSync(distMain)).toBe(true);
});
