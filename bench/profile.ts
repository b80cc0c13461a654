// npm run bench:profile -- <label>: a CPU profile of the transfer path (or of another load of
// bench/load.ts, PROFILE_KIND=quote for example). peerpay runs in-process on a fresh PostgreSQL
// database (or PGlite with PROFILE_DATABASE=pglite), seeded users send random POST /agent/transfer
// (or that load) at PROFILE_CONNECTIONS (32) for PROFILE_SECONDS (6), and the V8 profiler
// (what `node --cpu-prof` writes, started after the seeding so that only the load is in it) records
// the process. The summary, small enough to commit, goes to bench/results/profile-<label>.md: self
// time by package and the functions with most self time. The .cpuprofile itself stays in the
// temporary directory named in the output (open it in Chrome DevTools).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startPeerpay } from './peerpay-process.js';
import { seedUsers } from './seed.js';
import type { LoadResult, Scenario } from './load.js';
import { cpuSince, cpuTimes, type CpuTimes } from './cpu.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const label = process.argv[2] ?? 'latest';
const database = process.env.PROFILE_DATABASE ?? 'postgres';
const connections = Number(process.env.PROFILE_CONNECTIONS ?? 32);
const seconds = Number(process.env.PROFILE_SECONDS ?? 6);
const kind = (process.env.PROFILE_KIND ?? 'agent_transfer') as Scenario['kind'];
const ADMIN_URL = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-profile-'));

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

async function admin(text: string): Promise<pg.QueryResultRow[]> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

/** Transactions committed in the profile's database so far (a statement outside BEGIN is one). */
async function commits(): Promise<number | undefined> {
  if (!dbName) return undefined;
  // The statistics collector lags by up to its flush interval; a second's wait makes the count whole.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const [row] = await admin(`select xact_commit from pg_stat_database where datname = '${dbName}'`);
  return Number(row?.xact_commit);
}

function load(url: string, usersFile: string): Promise<LoadResult[]> {
  const scenarioFile = path.join(work, 'scenario.json');
  const outFile = path.join(work, 'result.json');
  const scenario: Scenario = { url, kind, connections, seconds, repeats: 1, usersFile };
  fs.writeFileSync(scenarioFile, JSON.stringify(scenario));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'load.ts'), scenarioFile, outFile], {
      cwd: root,
      stdio: 'inherit',
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(fs.readFileSync(outFile, 'utf8'))) : reject(new Error(`load exited ${code}`)),
    );
  });
}

/** Microseconds of `seconds` of CPU per 2xx answer of the load. */
function perRequest(seconds: number, result: LoadResult): string {
  return ((seconds * 1e6) / result.ok2xx).toFixed(0);
}

/** Where a frame's code comes from: a package under node_modules, peerpay's own sources, node itself, or V8. */
function ownerOf(url: string, functionName: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.includes('/src/')) return 'peerpay src/';
  if (url.startsWith('node:')) return 'node';
  if (url === '') return functionName.startsWith('(') ? functionName : 'native';
  return 'other';
}

interface Measured {
  result: LoadResult | undefined;
  /** Transactions committed in the profile's database during the load (PostgreSQL only). */
  transactions: number | undefined;
  cpu: CpuTimes;
}

function summarise(profile: { nodes: ProfileNode[]; samples?: number[] }, { result, transactions, cpu }: Measured): string {
  const total = profile.nodes.reduce((n, node) => n + (node.hitCount ?? 0), 0);
  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (hits === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const owner = ownerOf(url, functionName);
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + hits);
    const where = url ? `${url.replace(/^.*?(node_modules\/|\/src\/)/, '$1')}:${lineNumber + 1}` : '';
    const name = `${functionName || '(anonymous)'} ${where}`.trim();
    byFunction.set(name, (byFunction.get(name) ?? 0) + hits);
  }
  const share = (n: number) => `${((100 * n) / total).toFixed(1)}%`;
  const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  const lines = [
    `# CPU profile of the transfer path: ${label}`,
    '',
    `- ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${database}, ${kind === 'agent_transfer' ? 'POST /agent/transfer between random seeded users' : `the ${kind} scenario of bench/load.ts`}, ${connections} connections, ${seconds} s, profiler started after seeding (npm run bench:profile).`,
    `- Load: ${result ? `${result.throughput.toFixed(0)} requests/s, p50 ${result.latencyMedianMs} ms, p99 ${result.latencyP99Ms} ms, non-2xx ${result.non2xx}` : 'n/a'}; ${total} samples in the peerpay process.`,
    ...(result
      ? [
          `- CPU per request (profiler running, so above the benchmark's figure): peerpay ${perRequest(cpu.peerpay, result)} µs, PostgreSQL ${database === 'postgres' ? `${perRequest(cpu.postgres, result)} µs` : 'n/a'}.`,
        ]
      : []),
    ...(transactions !== undefined && result
      ? [
          `- PostgreSQL transactions per request: ${(transactions / (result.throughput * seconds)).toFixed(2)} (${transactions} committed in the database during the load; a statement outside a transaction counts as one).`,
        ]
      : []),
    '',
    '## Self time by owner',
    '',
    '| Owner | Share of samples |',
    '|---|---:|',
    ...top(byOwner, 15).map(([owner, n]) => `| ${owner} | ${share(n)} |`),
    '',
    '## Functions with most self time',
    '',
    '| Function | Share of samples |',
    '|---|---:|',
    ...top(byFunction, 25).map(([name, n]) => `| \`${name.replace(/\|/g, '\\|')}\` | ${share(n)} |`),
    '',
  ];
  return lines.join('\n');
}

let dbName: string | undefined;
let dbUrl: string | undefined;
if (database === 'postgres') {
  dbName = `peerpay_profile_${randomBytes(4).toString('hex')}`;
  await admin(`create database ${dbName}`);
  const u = new URL(ADMIN_URL);
  u.pathname = `/${dbName}`;
  dbUrl = u.toString();
}
const peerpay = await startPeerpay(path.join(work, 'data'), dbUrl, { server2xxTransfers: 0 });
try {
  const users = await seedUsers(peerpay.deps, Number(process.env.PROFILE_USERS ?? 2000));
  const usersFile = path.join(work, 'users.json');
  fs.writeFileSync(usersFile, JSON.stringify(users.map((u) => ({ key: u.key, handle: u.handle }))));
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  const commitsBefore = await commits();
  await session.post('Profiler.start');
  const cpuStart = cpuTimes();
  const [result] = await load(peerpay.url, usersFile);
  const cpu = cpuSince(cpuStart);
  const { profile } = await session.post('Profiler.stop');
  const commitsAfter = await commits();
  const transactions = commitsBefore === undefined || commitsAfter === undefined ? undefined : commitsAfter - commitsBefore;
  session.disconnect();
  const raw = path.join(work, `${label}.cpuprofile`);
  fs.writeFileSync(raw, JSON.stringify(profile));
  const summary = summarise(profile, { result, transactions, cpu });
  const out = path.join(here, 'results', `profile-${label}.md`);
  fs.writeFileSync(out, summary);
  console.log(summary);
  console.log(`raw profile: ${raw}; summary: ${out}`);
} finally {
  await peerpay.close();
  if (dbName) await admin(`drop database if exists ${dbName} with (force)`);
}
