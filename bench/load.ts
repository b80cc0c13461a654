// Load generator, run as its own process by bench/run.ts so that it does not share an event loop
// with the server it measures. Reads a scenario from the JSON file named by argv[2], runs autocannon
// against 127.0.0.1 only `repeats` times back to back (one process start for all of them), and
// writes the summaries as a JSON array to the file named by argv[3].
import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';

export interface Scenario {
  url: string;
  kind: 'agent_transfer' | 'agent_transfer_keyed' | 'fiat_instant' | 'fiat_instant_keyed' | 'quote' | 'balance' | 'hot_account' | 'static';
  connections: number;
  seconds: number;
  /** How many measurements of `seconds` each, one after another. */
  repeats: number;
  /** API keys and handles of the seeded users, same order. */
  usersFile?: string;
}

export interface LoadResult {
  requests: number;
  ok2xx: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  durationSeconds: number;
  throughput: number;
  latencyMedianMs: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  /** Seconds of CPU the load generator itself used during this measurement. */
  loadCpuSeconds: number;
}

const scenario: Scenario = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8'));
const outFile = process.argv[3]!;
if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(scenario.url)) throw new Error(`refusing to send traffic to ${scenario.url}`);

const users: { key: string; handle: string }[] = scenario.usersFile ? JSON.parse(fs.readFileSync(scenario.usersFile, 'utf8')) : [];
const pick = () => Math.floor(Math.random() * users.length);
function pair(): [number, number] {
  const s = pick();
  let r = pick();
  while (r === s) r = pick();
  return [s, r];
}

type Req = { method?: string; path?: string; headers?: Record<string, string>; body?: string };
let setup: (req: Req) => Req;

/** A JSON POST of `body` to `path` by user `sender`, with `extraHeaders`. */
function postAs(req: Req, sender: number, path: string, body: unknown, extraHeaders: Record<string, string> = {}): Req {
  return {
    ...req,
    method: 'POST',
    path,
    headers: { authorization: `Bearer ${users[sender]!.key}`, 'content-type': 'application/json', ...extraHeaders },
    body: JSON.stringify(body),
  };
}
/** A random pair's transfer of 0.01 USDC, with `extraHeaders`. */
function agentTransfer(req: Req, extraHeaders: Record<string, string>): Req {
  const [s, r] = pair();
  return postAs(req, s, '/agent/transfer', { to: users[r]!.handle, amount: 0.01, currency: 'USDC' }, extraHeaders);
}
/** A random pair's instant card transfer of 1 USD, with `extraHeaders`. */
function fiatInstant(req: Req, extraHeaders: Record<string, string>): Req {
  const [s, r] = pair();
  const body = { recipientHandle: users[r]!.handle, amount: 1, currency: 'USD', paymentMethod: 'instant' };
  return postAs(req, s, '/transfers', body, extraHeaders);
}

switch (scenario.kind) {
  case 'static':
    setup = (req) => ({ ...req, method: 'GET', path: '/static' });
    break;
  case 'agent_transfer':
    setup = (req) => agentTransfer(req, {});
    break;
  case 'agent_transfer_keyed':
    // As a real client sends it: a fresh Idempotency-Key on every money movement, so every request
    // pays for its claim before the work and its stored answer after.
    setup = (req) => agentTransfer(req, { 'idempotency-key': randomUUID() });
    break;
  case 'hot_account':
    setup = (req) => {
      let r = pick();
      while (r === 0) r = pick();
      return postAs(req, 0, '/agent/transfer', { to: users[r]!.handle, amount: 0.01, currency: 'USDC' });
    };
    break;
  case 'fiat_instant':
    setup = (req) => fiatInstant(req, {});
    break;
  case 'fiat_instant_keyed':
    // The card transfer as a real client sends it: a fresh Idempotency-Key each time.
    setup = (req) => fiatInstant(req, { 'idempotency-key': randomUUID() });
    break;
  case 'quote':
    setup = (req) => {
      const [s, r] = pair();
      return {
        ...req,
        method: 'GET',
        path: `/agent/transfer/quote?to=${users[r]!.handle}&amount=10&currency=USDC`,
        headers: { authorization: `Bearer ${users[s]!.key}` },
      };
    };
    break;
  case 'balance':
    setup = (req) => ({ ...req, method: 'GET', path: '/stablecoin/balance', headers: { authorization: `Bearer ${users[pick()]!.key}` } });
    break;
}

const summaries: LoadResult[] = [];
for (let i = 0; i < scenario.repeats; i++) {
  const cpuBefore = process.cpuUsage();
  const result = await autocannon({
    url: scenario.url,
    connections: scenario.connections,
    duration: scenario.seconds,
    timeout: 30,
    requests: [{ setupRequest: setup as never }],
  });
  const ok2xx = result['2xx'];
  const cpu = process.cpuUsage(cpuBefore);
  summaries.push({
    requests: result.requests.total,
    ok2xx,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    durationSeconds: result.duration,
    throughput: ok2xx / result.duration,
    latencyMedianMs: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    latencyMaxMs: result.latency.max,
    loadCpuSeconds: (cpu.user + cpu.system) / 1e6,
  });
}
fs.writeFileSync(outFile, JSON.stringify(summaries));
