// HAProxy from the system's packages, run by a test with deploy/haproxy.cfg as shipped: in the
// foreground, as the test's user, on free ports, in front of the given peerpay processes. `.ci/run`
// installs the package when it is missing (apt-get install haproxy).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../../helpers/free-port.js';

export const HAPROXY_CONFIG = path.resolve('deploy/haproxy.cfg');

export interface Balancer {
  readonly url: string;
  /** The status HAProxy gives each server of the main backend: UP, DOWN, "UP 1/2", "DOWN 1/2", MAINT... */
  serverStates(): Promise<Record<string, string>>;
  /** Waits until the server `name` (p1, p2, p3) has the status `state` (UP or DOWN) in HAProxy's view. */
  waitFor(name: string, state: 'UP' | 'DOWN', timeoutMs?: number): Promise<void>;
  output(): string;
  stop(): Promise<void>;
}

function haproxyBinary(): string {
  for (const candidate of ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy']) if (fs.existsSync(candidate)) return candidate;
  const found = spawnSync('sh', ['-c', 'command -v haproxy'], { encoding: 'utf8' }).stdout.trim();
  if (found) return found;
  throw new Error('haproxy is not installed: `apt-get install haproxy` (.ci/run does it when it is missing)');
}

export async function startBalancer(backends: readonly string[]): Promise<Balancer> {
  if (backends.length !== 3) throw new Error('deploy/haproxy.cfg names three processes');
  const [port, statsPort] = [await freePort(), await freePort()];
  const env = {
    ...process.env,
    PEERPAY_LISTEN: `127.0.0.1:${port}`,
    PEERPAY_STATS: `127.0.0.1:${statsPort}`,
    PEERPAY_1: backends[0]!,
    PEERPAY_2: backends[1]!,
    PEERPAY_3: backends[2]!,
  };
  let output = '';
  const child: ChildProcess = spawn(haproxyBinary(), ['-db', '-f', HAPROXY_CONFIG], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const statsUrl = `http://127.0.0.1:${statsPort}/stats;csv`;

  async function serverStates(): Promise<Record<string, string>> {
    const csv = await (await fetch(statsUrl, { signal: AbortSignal.timeout(2000) })).text();
    const [header, ...rows] = csv.replace(/^# /, '').trim().split('\n');
    const columns = header!.split(',');
    const [pxname, svname, status] = ['pxname', 'svname', 'status'].map((c) => columns.indexOf(c));
    const states: Record<string, string> = {};
    for (const row of rows) {
      const cells = row.split(',');
      if (cells[pxname!] === 'peerpay' && /^p\d$/.test(cells[svname!]!)) states[cells[svname!]!] = cells[status!]!;
    }
    return states;
  }

  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited (${child.exitCode}): ${output}`);
    try {
      await serverStates();
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`haproxy did not start: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  return {
    url: `http://127.0.0.1:${port}`,
    serverStates,
    async waitFor(name, state, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const now = (await serverStates())[name];
        if (now === state) return;
        if (Date.now() > until) throw new Error(`haproxy: ${name} is ${now}, not ${state}, after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
