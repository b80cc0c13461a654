// npm run bench:profile -- <label>: a CPU profile of the transfer path (or of another load of
// bench/load.ts, PROFILE_KIND=quote for example). peerpay runs in-process on a fresh PostgreSQL
// database (or PGlite with PROFILE_DATABASE=pglite), seeded users send random POST /agent/transfer
// (or that load) at PROFILE_CONNECTIONS (32) for PROFILE_SECONDS (6), and the V8 profiler
// (what `node --cpu-prof` writes, started after the seeding so that only the load is in it) records
// the process. The summary, small enough to commit, goes to bench/results/profile-<label>.md: self
// time by package and the functions with most self time, the group commit's batches during the load
// (batch-sizes.ts), and on PGlite the engine's time by statement (pglite-statement-times.ts). The
// .cpuprofile itself stays in the temporary directory named in the output (open it in Chrome DevTools).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { startPeerpay } from './peerpay-process.js';
import { statementTimesTable, timePgliteStatements } from './pglite-statement-times.js';
import { batchCounts, batchSizesTable } from './batch-sizes.js';
import { seedUsers } from './seed.js';
import { adminQuery, createScratchDatabase, dropScratchDatabase } from './scratch-database.js';
import type { LoadResult, Scenario } from './load.js';
import { cpuSince, cpuTimes, TICKS_PER_SECOND, type CpuTimes } from './cpu.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const label = process.argv[2] ?? 'latest';
const database = process.env.PROFILE_DATABASE ?? 'postgres';
const connections = Number(process.env.PROFILE_CONNECTIONS ?? 32);
const seconds = Number(process.env.PROFILE_SECONDS ?? 6);
const kind = (process.env.PROFILE_KIND ?? 'agent_transfer') as Scenario['kind'];
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-profile-'));

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

/** Transactions committed in the profile's database so far (a statement outside BEGIN is one). */
async function commits(): Promise<number | undefined> {
  if (!dbName) return undefined;
  // A busy backend reports its counts at most once a second, an idle one (a pooled connection
  // after the seeding or the load) only after 10 s idle (PostgreSQL 15's PGSTAT_IDLE_INTERVAL):
  // 11 s makes the counts whole, or the seeding's rows leak into the load's.
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  const [row] = await adminQuery(`select xact_commit from pg_stat_database where datname = '${dbName}'`);
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

/** Ticks of CPU of each backend serving the profile's database (the pool's connections). */
async function backendTicks(): Promise<Map<number, number>> {
  const ticks = new Map<number, number>();
  if (!dbName) return ticks;
  for (const row of await adminQuery(`select pid from pg_stat_activity where datname = '${dbName}'`)) {
    try {
      const stat = fs.readFileSync(`/proc/${row.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks.set(Number(row.pid), Number(fields[11]) + Number(fields[12]));
    } catch {
      // gone meanwhile
    }
  }
  return ticks;
}

/**
 * Seconds of CPU the database's backends spent between two readings: on a machine shared with
 * other work, every PostgreSQL process (bench/cpu.ts) counts others' queries too; this does not
 * (nor the server's own background processes, the WAL writer's flushes for one).
 */
function backendSeconds(before: Map<number, number>, after: Map<number, number>): number {
  let ticks = 0;
  for (const [pid, t] of after) ticks += t - (before.get(pid) ?? 0);
  return ticks / TICKS_PER_SECOND;
}

type TableWrites = Map<string, { inserted: number; updated: number; hot: number }>;

/** Rows each table of the profile's database has had inserted and updated (HOT: without new index entries). */
async function tableWrites(): Promise<TableWrites | undefined> {
  if (!dbUrl) return undefined;
  const rows = await adminQuery('select relname, n_tup_ins, n_tup_upd, n_tup_hot_upd from pg_stat_user_tables', dbUrl);
  return new Map(
    rows.map((r) => [r.relname as string, { inserted: Number(r.n_tup_ins), updated: Number(r.n_tup_upd), hot: Number(r.n_tup_hot_upd) }]),
  );
}

/** The tables written during the load: rows per answer, and the share of updates that were HOT. */
function writesTable(before: TableWrites | undefined, after: TableWrites | undefined, answers: number): string[] {
  if (!before || !after || answers === 0) return [];
  const lines = [
    '',
    '## PostgreSQL rows written per 2xx answer',
    '',
    '| Table | Inserted | Updated | HOT share of updates |',
    '|---|---:|---:|---:|',
  ];
  for (const [table, a] of [...after].sort((x, y) => x[0].localeCompare(y[0]))) {
    const b = before.get(table) ?? { inserted: 0, updated: 0, hot: 0 };
    const [ins, upd, hot] = [a.inserted - b.inserted, a.updated - b.updated, a.hot - b.hot];
    if (ins + upd === 0) continue;
    lines.push(
      `| ${table} | ${(ins / answers).toFixed(2)} | ${(upd / answers).toFixed(2)} | ${upd > 0 ? `${((100 * hot) / upd).toFixed(0)}%` : '–'} |`,
    );
  }
  return lines;
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
  /** CPU seconds of the profile database's own backends. */
  backends: number;
  writes: string[];
  /** PGlite only: the engine's time by statement. */
  statements: string[];
  /** The group commit's batches during the load. */
  batches: string[];
}

function summarise(
  profile: { nodes: ProfileNode[]; samples?: number[] },
  { result, transactions, cpu, backends, writes, statements, batches }: Measured,
): string {
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
          `- CPU per request (profiler running, so above the benchmark's figure): peerpay ${perRequest(cpu.peerpay, result)} µs, PostgreSQL ${database === 'postgres' ? `${perRequest(cpu.postgres, result)} µs (its backends for this database: ${perRequest(backends, result)} µs)` : 'n/a'}.`,
        ]
      : []),
    ...(transactions !== undefined && result
      ? [
          `- PostgreSQL transactions per request: ${(transactions / (result.throughput * seconds)).toFixed(2)} (${transactions} committed in the database during the load; a statement outside a transaction counts as one).`,
        ]
      : []),
    ...writes,
    ...batches,
    ...statements,
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
  ({ name: dbName, url: dbUrl } = await createScratchDatabase('peerpay_profile'));
}
// Before peerpay starts, to see every statement prepared (a statement keeps its name for good).
const engine = database === 'pglite' ? timePgliteStatements() : undefined;
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
  const writesBefore = await tableWrites();
  await session.post('Profiler.start');
  const backendsStart = await backendTicks();
  const cpuStart = cpuTimes();
  engine?.reset();
  const batchesBefore = await batchCounts(peerpay.deps.metrics);
  const [result] = await load(peerpay.url, usersFile);
  const batchesAfter = await batchCounts(peerpay.deps.metrics);
  const cpu = cpuSince(cpuStart);
  const engineTimes = engine?.stop();
  const backends = backendSeconds(backendsStart, await backendTicks());
  const { profile } = await session.post('Profiler.stop');
  const commitsAfter = await commits();
  const writesAfter = await tableWrites();
  const transactions = commitsBefore === undefined || commitsAfter === undefined ? undefined : commitsAfter - commitsBefore;
  session.disconnect();
  const raw = path.join(work, `${label}.cpuprofile`);
  fs.writeFileSync(raw, JSON.stringify(profile));
  const writes = result ? writesTable(writesBefore, writesAfter, result.ok2xx) : [];
  const statements = result && engineTimes ? statementTimesTable(engineTimes, result.ok2xx) : [];
  const batches = result ? batchSizesTable(batchesBefore, batchesAfter, result.ok2xx) : [];
  const summary = summarise(profile, { result, transactions, cpu, backends, writes, statements, batches });
  const out = path.join(here, 'results', `profile-${label}.md`);
  fs.writeFileSync(out, summary);
  console.log(summary);
  console.log(`raw profile: ${raw}; summary: ${out}`);
} finally {
  engine?.stop();
  await peerpay.close();
  if (dbName) await dropScratchDatabase(dbName);
}
