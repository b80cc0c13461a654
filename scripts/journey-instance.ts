// An instance of peerpay of the journeys' own: the compiled service (what `npm start` runs) in
// sandbox mode on a free port, with a fresh DATA_DIR, so that the journeys can move its sandbox
// clock without touching a peerpay someone has running. Stopping it removes its data.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface OwnInstance {
  readonly url: string;
  readonly dataDir: string;
  /** SIGTERM, wait for the exit, remove DATA_DIR. */
  stop(): Promise<void>;
}

const repoRoot = path.resolve(import.meta.dirname, '..');
const distMain = path.join(repoRoot, 'dist', 'main.js');

export async function startOwnInstance(timeoutMs = 120_000): Promise<OwnInstance> {
  if (!fs.existsSync(distMain)) throw new Error('dist/main.js is missing: build it with `npm run build` (npm ci does)');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-journey-'));
  // Only what a sandbox needs: none of this shell's peerpay settings (a DATABASE_URL, live mode).
  const env: NodeJS.ProcessEnv = { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, PEERPAY_MODE: 'sandbox', LOG_FORMAT: 'json' };
  for (const name of ['PATH', 'HOME', 'LANG', 'TMPDIR', 'SYSTEMROOT']) if (process.env[name]) env[name] = process.env[name];
  const child = spawn(process.execPath, [distMain], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(killer);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    return {
      url: await listeningUrl(
        () => output,
        () => child.exitCode !== null,
        timeoutMs,
      ),
      dataDir,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The `url` of its `peerpay is listening` log line. */
async function listeningUrl(output: () => string, exited: () => boolean, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const line of output().split('\n')) {
      if (!line.startsWith('{')) continue;
      try {
        const record = JSON.parse(line) as { msg?: string; url?: string };
        if (record.msg === 'peerpay is listening' && record.url) return record.url;
      } catch {
        // a line still being written
      }
    }
    if (exited()) throw new Error(`peerpay exited before it answered:\n${output().slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`peerpay did not answer within ${timeoutMs} ms:\n${output().slice(-2000)}`);
}
