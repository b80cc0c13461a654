// peerpay as a newcomer runs it: `src/main.ts` in its own process, in sandbox mode with its data
// in DATA_DIR. The scripted journey runs against it; SIGTERM shuts it down cleanly; a restart
// keeps every account and balance.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runJourney } from '../../scripts/journey.js';
import { createPostgresTestDatabase } from '../helpers/test-database.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-e2e-'));
const postgres = await createPostgresTestDatabase();
afterAll(async () => {
  await postgres?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const port = (probe.address() as net.AddressInfo).port;
      probe.close(() => resolve(port));
    });
  });
}

interface Service {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
}

async function startService(): Promise<Service> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'info', PEERPAY_MODE: 'sandbox' };
  if (postgres) env.DATABASE_URL = postgres.url;
  else delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`service exited early: ${output}`);
    try {
      if ((await fetch(`${baseUrl}/health`)).ok) return { child, baseUrl, output: () => output };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`service did not start: ${output}`);
}

async function stopService(service: Service): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => service.child.once('exit', (code) => resolve(code)));
  service.child.kill('SIGTERM');
  return exited;
}

it('runs the journey, shuts down on SIGTERM, and keeps its data across a restart', async () => {
  const first = await startService();
  const lines: string[] = [];
  const { recipientKey, recipientHandle } = await runJourney(first.baseUrl, (line) => lines.push(line));
  expect(lines.at(-1)).toBe('journey complete');
  expect(await stopService(first)).toBe(0);
  const logs = first.output();
  expect(logs).toContain('peerpay is listening');
  expect(logs).toContain('shutting down');
  expect(logs).not.toContain(recipientKey);
  expect(logs).not.toContain('correct horse battery');

  const second = await startService();
  try {
    const check = await (await fetch(`${second.baseUrl}/agents/check?handle=${recipientHandle}`)).json();
    expect(check.exists).toBe(true);
    const balance = await (await fetch(`${second.baseUrl}/balance`, { headers: { authorization: `Bearer ${recipientKey}` } })).json();
    expect(balance.balances.find((b: { currency: string }) => b.currency === 'USD')).toMatchObject({ available: '30.00', pending: '0.00' });
  } finally {
    expect(await stopService(second)).toBe(0);
  }
}, 120_000);
