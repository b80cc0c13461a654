// A database that cannot be reached at start is one line on stderr naming where it was looked for
// and why, and a non-zero exit: not a stack trace calling it a migration failure. The compiled
// service (dist/, what `npm start` and a service manager run), with DATABASE_URL at a closed port.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distMain, ensureBuilt, plainEnv } from '../helpers/built-service.js';
import { freePort } from '../helpers/free-port.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-no-db-'));

beforeAll(() => ensureBuilt(), 180_000);
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** `node dist/main.js` with exactly `env` (and PATH, HOME); its exit code, stdout and stderr apart. */
async function runMain(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [distMain], { env: plainEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  clearTimeout(timer);
  return { code, stdout, stderr };
}

describe('a database that cannot be reached at start', () => {
  it('is one line naming host and port, and a non-zero exit', async () => {
    const closed = await freePort();
    const { code, stdout, stderr } = await runMain({
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_FORMAT: 'json',
      DATABASE_URL: `postgres://peerpay:not-a-real-password@127.0.0.1:${closed}/peerpay`,
    });
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    expect(stderr).toBe(`peerpay: cannot reach the database at 127.0.0.1:${closed}: connect ECONNREFUSED 127.0.0.1:${closed}\n`);
    expect(stdout).not.toMatch(/migration|Error/);
    expect(stderr + stdout).not.toContain('not-a-real-password');
  }, 90_000);
});
