// SIGTERM drains the compiled service (`node dist/main.js`): /health/ready fails at once naming
// `draining` while requests are still answered (each connection closed after its answer) for
// DRAIN_DELAY_MS, which a second signal cuts short; then it stops accepting and exits 0. A request
// still under way after SHUTDOWN_TIMEOUT_MS makes it exit 1 anyway. (That the delay ends by itself,
// behind a real balancer that takes the process out meanwhile: test/chaos/fleet.test.ts.)
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { spawnMain } from '../helpers/main-process.js';
import { PGLITE_PASS_ONLY, runsIf } from '../helpers/runs-if.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-drain-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

// The service runs on its own PGlite whatever DATABASE_URL says: the PostgreSQL pass would repeat it.
const once = runsIf(!process.env.DATABASE_URL, PGLITE_PASS_ONLY);

async function started(env: Record<string, string>) {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(root, 'data-'));
  const service = spawnMain({
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: undefined,
    MASTER_SEED: undefined,
    LOG_LEVEL: 'info',
    ...env,
  });
  const url = `http://127.0.0.1:${port}`;
  await service.healthy(url);
  return { service, url, port };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it.runIf(once)('keeps answering while /health/ready says draining; a second signal ends the delay, then it exits 0', async () => {
  // A delay longer than the test's timeout: only the second signal can end it in time.
  const { service, url } = await started({ DRAIN_DELAY_MS: '300000' });
  try {
    expect((await fetch(`${url}/health/ready`)).status).toBe(200);
    service.child.kill('SIGTERM');
    await sleep(500);
    const ready = await fetch(`${url}/health/ready`);
    const problem = await ready.json();
    expect(ready.status).toBe(503);
    expect(problem.checks.draining.status).toBe('fail');
    const answered = await fetch(`${url}/health`);
    expect(answered.status).toBe(200);
    expect(answered.headers.get('connection')).toBe('close');
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
    await expect(fetch(`${url}/health`)).rejects.toThrow();
    expect(service.output()).toMatch(/draining: \/health\/ready answers 503/);
    expect(service.output()).toMatch(/shutting down: no new connections/);
  } finally {
    await service.stop();
  }
});

it.runIf(once)('exits 1 when a request is still under way SHUTDOWN_TIMEOUT_MS after the delay', async () => {
  const { service, port } = await started({ DRAIN_DELAY_MS: '0', SHUTDOWN_TIMEOUT_MS: '1000' });
  // A request whose body never ends: the server waits for it, as for any request under way.
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write('POST /agent/register HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"em');
  await sleep(200);
  try {
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(1);
    expect(service.output()).toMatch(/still under way after SHUTDOWN_TIMEOUT_MS/);
  } finally {
    socket.destroy();
    await service.stop();
  }
});
