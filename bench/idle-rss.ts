// Idle RSS as DESIGN §20 measures it: what `npm start` runs (node with its flags, dist/main.js) in
// sandbox mode on a fresh DATA_DIR, PGlite or a fresh PostgreSQL database, left alone after it
// answers /health/live, then the resident memory of that node process (its embedded chain is a
// process of its own and not counted). Unlike the bench's in-process figures, nothing of the bench
// is in it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** How long the service is left alone after it answers, before its RSS is read. */
export const IDLE_SETTLE_MS = 30_000;
const START_TIMEOUT_MS = 120_000;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function rssMbOf(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) / 1024;
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

/** The node flags `npm start` runs dist/main.js with (package.json; decision 0068). */
export function startFlags(root: string): string[] {
  const start: unknown = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts?.start;
  const words = typeof start === 'string' ? start.trim().split(/\s+/) : [];
  if (words[0] !== 'node' || words.at(-1) !== 'dist/main.js')
    throw new Error(`npm start is not "node [flags] dist/main.js": ${String(start)}`);
  return words.slice(1, -1);
}

/**
 * Starts dist/main.js as npm start does, waits until it answers and then IDLE_SETTLE_MS more, and
 * answers its RSS in MiB. `databaseUrl` undefined: PGlite in a fresh DATA_DIR.
 */
export async function idleRssOfStart(root: string, databaseUrl: string | undefined): Promise<number> {
  const main = path.join(root, 'dist', 'main.js');
  if (!fs.existsSync(main)) throw new Error(`${main} is missing: run npm run build first`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-idle-'));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_FORMAT: 'json',
    LOG_LEVEL: 'warn',
    DRAIN_DELAY_MS: '0',
  };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const child = spawn(process.execPath, [...startFlags(root), main], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!(await answers(`http://127.0.0.1:${port}/health/live`))) {
      if (child.exitCode !== null) throw new Error(`dist/main.js exited with ${child.exitCode} before answering`);
      if (Date.now() > deadline) throw new Error('dist/main.js did not answer within two minutes');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await new Promise((resolve) => setTimeout(resolve, IDLE_SETTLE_MS));
    return rssMbOf(child.pid!);
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
