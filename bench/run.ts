// npm run bench: peerpay's throughput and latency on PGlite and on the local PostgreSQL, each figure
// set beside two ceilings measured in the same run on the same machine: a bare Fastify server
// answering a static JSON route (HTTP) and pgbench doing one transfer's SQL (database). The load
// comes from autocannon in a child process (bench/load.ts). Traffic goes to 127.0.0.1 only. Every
// figure is measured BENCH_REPEATS times; the report gives the median and the spread.
//
// Everything durable is measured with synchronous_commit on. Then, in a separate and labelled part,
// PostgreSQL transfers and the pgbench ceiling are measured again with synchronous_commit=off (set
// per connection, never on the server): how much of a transfer's time is the commit's flush.
//
// Settings: BENCH_USERS (10000), BENCH_SECONDS (3), BENCH_REPEATS (3), BENCH_CONCURRENCY ("1,8,32"),
// BENCH_DATABASES ("pglite,postgres"), BENCH_DURABILITY_OFF ("1"; "0" leaves that part out),
// BENCH_PG_ADMIN_URL (postgres://postgres@127.0.0.1:5432/postgres), BENCH_RESULTS_DIR (bench/results).
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { sql } from 'kysely';
import type { Deps } from '../src/deps.js';
import { checkLedgerInvariants } from '../src/ledger/ledger-queries.js';
import { seedUsers, type SeededUser } from './seed.js';
import type { LoadResult, Scenario } from './load.js';
import { renderChart } from './chart.js';
import { startPeerpay, type Peerpay } from './peerpay-process.js';
import { rawSetupSql, rawTransferScript, transferScript } from './pgbench-script.js';
import { cpuSince, cpuTimes, type CpuTimes } from './cpu.js';
import { collectGarbage, rssMb, watchPeak } from './rss.js';
import { idleRssOfStart } from './idle-rss.js';
import { ADMIN_URL, createScratchDatabase, dropScratchDatabase } from './scratch-database.js';
import { spreadOf, summarise } from './stats.js';
import {
  LABEL,
  renderReport,
  type CeilingKind,
  type DatabaseRun,
  type Kind,
  type PgCeilingRun,
  type Row,
  type Settings,
} from './report.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const settings: Settings = {
  users: Number(process.env.BENCH_USERS ?? 10_000),
  seconds: Number(process.env.BENCH_SECONDS ?? 3),
  repeats: Number(process.env.BENCH_REPEATS ?? 3),
  levels: (process.env.BENCH_CONCURRENCY ?? '1,8,32').split(',').map(Number),
  databases: (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(',') as ('pglite' | 'postgres')[],
  durabilityOff: (process.env.BENCH_DURABILITY_OFF ?? '1') !== '0',
};
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-bench-'));
const WRITE_KINDS: Kind[] = ['agent_transfer', 'agent_transfer_keyed', 'fiat_instant', 'hot_account'];

function log(message: string): void {
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

let loadCounter = 0;
/** The load's results, and the CPU peerpay (this process) and PostgreSQL used meanwhile. */
async function runLoad(
  scenario: Omit<Scenario, 'repeats' | 'seconds'>,
  repeats = settings.repeats,
): Promise<{ runs: LoadResult[]; cpu: CpuTimes }> {
  const start = cpuTimes();
  const runs = await runLoadProcess(scenario, repeats);
  return { runs, cpu: cpuSince(start) };
}

/**
 * Kinds whose CPU per answer §20 compares (the keyed transfer's and the card transfer's, each
 * against the unkeyed transfer's), measured in turn, one repeat at a time, each repeat in the
 * order of the last rotated by one (A B C, B C A, C A B): what drifts during a database's run
 * (its tables' growth, PostgreSQL's checkpoints and the full-page writes after each) falls on all
 * of them alike, instead of on whichever ran its repeats at that moment (decision 0072).
 */
async function runInTurn(
  kinds: readonly Kind[],
  scenario: Omit<Scenario, 'repeats' | 'seconds' | 'kind'>,
): Promise<Map<Kind, { runs: LoadResult[]; cpu: CpuTimes }>> {
  const measured = new Map(kinds.map((kind) => [kind, { runs: [] as LoadResult[], cpu: { peerpay: 0, postgres: 0 } }]));
  for (let repeat = 0; repeat < settings.repeats; repeat++) {
    for (let i = 0; i < kinds.length; i++) {
      const kind = kinds[(repeat + i) % kinds.length]!;
      const { runs, cpu } = await runLoad({ ...scenario, kind }, 1);
      const sums = measured.get(kind)!;
      sums.runs.push(...runs);
      sums.cpu = { peerpay: sums.cpu.peerpay + cpu.peerpay, postgres: sums.cpu.postgres + cpu.postgres };
    }
  }
  return measured;
}

async function runLoadProcess(scenario: Omit<Scenario, 'repeats' | 'seconds'>, repeats: number): Promise<LoadResult[]> {
  const n = ++loadCounter;
  const scenarioFile = path.join(work, `scenario-${n}.json`);
  const outFile = path.join(work, `result-${n}.json`);
  fs.writeFileSync(scenarioFile, JSON.stringify({ ...scenario, seconds: settings.seconds, repeats } satisfies Scenario));
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'load.ts'), scenarioFile, outFile], {
      cwd: root,
      stdio: 'inherit',
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`load generator exited with ${code}`))));
  });
  return JSON.parse(fs.readFileSync(outFile, 'utf8'));
}

function describe(runs: LoadResult[]): string {
  const s = summarise(runs);
  return `${s.throughput.median.toFixed(0)}/s (${s.throughput.min.toFixed(0)}–${s.throughput.max.toFixed(0)}) p50 ${s.latencyMedianMs} ms p99 ${s.latencyP99Ms} ms, non-2xx ${s.non2xx}, errors ${s.errors}`;
}

async function httpCeiling(): Promise<Row[]> {
  const app = Fastify({ logger: false });
  app.get('/static', async () => ({ ok: true, service: 'ceiling', items: [1, 2, 3] }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const rows: Row[] = [];
  for (const connections of settings.levels) {
    const { runs, cpu } = await runLoad({ url: `http://127.0.0.1:${address.port}`, kind: 'static', connections });
    rows.push({ database: '-', kind: 'static', connections, durability: 'on', runs, cpu });
    log(`HTTP ceiling c=${connections}: ${describe(runs)}`);
  }
  await app.close();
  return rows;
}

/**
 * A pgbench ceiling on the seeded database (after the verification): `schema` does what one
 * stablecoin transfer does in peerpay's tables, `raw` the textbook transfer on tables of its own.
 */
function databaseCeiling(url: string, durability: 'on' | 'off', kind: CeilingKind = 'schema'): PgCeilingRun[] {
  const script = path.join(work, `transfer-${kind}.sql`);
  fs.writeFileSync(script, kind === 'raw' ? rawTransferScript(settings.users) : transferScript(settings.users));
  const u = new URL(url);
  if (kind === 'raw') execFileSync('psql', [url, '-q', '-v', 'ON_ERROR_STOP=1', '-c', rawSetupSql(settings.users)], { encoding: 'utf8' });
  // PGOPTIONS sets synchronous_commit for pgbench's own sessions only.
  const env = { ...process.env, PGOPTIONS: `-c synchronous_commit=${durability}` };
  const results: PgCeilingRun[] = [];
  for (const connections of settings.levels) {
    const runs = [];
    for (let i = 0; i < settings.repeats; i++) {
      const cpuStart = cpuTimes();
      const out = execFileSync(
        'pgbench',
        [
          '-h',
          u.hostname,
          '-p',
          u.port || '5432',
          '-U',
          decodeURIComponent(u.username || 'postgres'),
          '-n',
          '-M',
          'prepared',
          '-c',
          String(connections),
          '-j',
          String(Math.min(connections, 2)),
          '-T',
          String(settings.seconds),
          '-f',
          script,
          u.pathname.slice(1),
        ],
        { encoding: 'utf8', env },
      );
      runs.push({
        tps: Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? NaN),
        latencyMs: Number(/latency average = ([\d.]+) ms/.exec(out)?.[1] ?? NaN),
        failed: Number(/number of failed transactions: (\d+)/.exec(out)?.[1] ?? 0),
        transactions: Number(/number of transactions actually processed: (\d+)/.exec(out)?.[1] ?? NaN),
        postgresCpuSeconds: cpuSince(cpuStart).postgres,
      });
    }
    results.push({ connections, durability, kind, runs });
    log(
      `database ceiling ${kind} (synchronous_commit=${durability}) c=${connections}: ${runs.map((r) => r.tps.toFixed(0)).join(' / ')} tps`,
    );
  }
  return results;
}

async function synchronousCommitOf(deps: Deps): Promise<string> {
  const row = await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(deps.db);
  return row.rows[0]!.synchronous_commit;
}

async function benchDatabase(database: 'pglite' | 'postgres'): Promise<DatabaseRun> {
  const dataDir = path.join(work, `data-${database}`);
  let dbName: string | undefined;
  let dbUrl: string | undefined;
  if (database === 'postgres') {
    ({ name: dbName, url: dbUrl } = await createScratchDatabase('peerpay_bench'));
  }
  const counter = { server2xxTransfers: 0 };
  let peerpay: Peerpay | undefined;
  try {
    await collectGarbage();
    const beforeMb = rssMb();
    peerpay = await startPeerpay(dataDir, dbUrl, counter);
    await collectGarbage();
    const idleMb = rssMb();
    log(`${database}: RSS right after start ${idleMb.toFixed(0)} MiB (${beforeMb.toFixed(0)} MiB before)`);
    if (dbUrl) {
      const mode = await synchronousCommitOf(peerpay.deps);
      if (mode !== 'on') throw new Error(`the durable part needs synchronous_commit on, the server has ${mode}`);
    }
    const seedStart = performance.now();
    const users: SeededUser[] = await seedUsers(peerpay.deps, settings.users);
    const seedSeconds = (performance.now() - seedStart) / 1000;
    log(`${database}: seeded ${users.length} users in ${seedSeconds.toFixed(1)} s`);
    const usersFile = path.join(work, `users-${database}.json`);
    fs.writeFileSync(usersFile, JSON.stringify(users.map((u) => ({ key: u.key, handle: u.handle }))));

    const rows: Row[] = [];
    const peak = watchPeak(beforeMb, idleMb);
    const compared: Kind[] = ['agent_transfer', 'agent_transfer_keyed', 'fiat_instant'];
    const inTurn: Row[] = [];
    for (const connections of settings.levels) {
      const measured = await runInTurn(compared, { url: peerpay.url, connections, usersFile });
      for (const [kind, { runs, cpu }] of measured) {
        inTurn.push({ database, kind, connections, durability: 'on', runs, cpu });
        log(`${database} ${kind} c=${connections}: ${describe(runs)}`);
      }
    }
    // The report's tables list a kind's levels together.
    for (const kind of compared) rows.push(...inTurn.filter((row) => row.kind === kind));
    const plan: [Kind, number[]][] = [
      ['quote', settings.levels],
      ['balance', settings.levels],
      ['hot_account', settings.levels.slice(1)],
    ];
    for (const [kind, levels] of plan) {
      for (const connections of levels) {
        const { runs, cpu } = await runLoad({ url: peerpay.url, kind, connections, usersFile });
        rows.push({ database, kind, connections, durability: 'on', runs, cpu });
        log(`${database} ${kind} c=${connections}: ${describe(runs)}`);
      }
    }

    let durabilityOffSetting: string | undefined;
    if (dbUrl && settings.durabilityOff) {
      // The same database and users, served by a second peerpay whose connections commit without
      // waiting for the WAL flush. Only these rows, and the matching ceiling, trade durability.
      await peerpay.close();
      peerpay = undefined;
      const offUrl = new URL(dbUrl);
      offUrl.searchParams.set('options', '-c synchronous_commit=off');
      peerpay = await startPeerpay(dataDir, offUrl.toString(), counter);
      durabilityOffSetting = await synchronousCommitOf(peerpay.deps);
      if (durabilityOffSetting !== 'off')
        throw new Error(`synchronous_commit is ${durabilityOffSetting} on the durability-off connections`);
      for (const connections of settings.levels) {
        const { runs, cpu } = await runLoad({ url: peerpay.url, kind: 'agent_transfer', connections, usersFile });
        rows.push({ database, kind: 'agent_transfer', connections, durability: 'off', runs, cpu });
        log(`${database} synchronous_commit=off agent_transfer c=${connections}: ${describe(runs)}`);
      }
    }

    // Requests autocannon left in flight at its last stop may still be waiting for their commit
    // (a batch under way): they are answered, and counted, before the database is counted.
    await peerpay.drain();
    const memory = peak.stop();
    log(
      `${database}: peak RSS during the load ${memory.peakMb.toFixed(0)} MiB (${memory.peakSource}), ${(memory.peakMb / idleMb).toFixed(2)}× idle`,
    );
    const db = peerpay.deps.db;
    const violations = await checkLedgerInvariants(db);
    const counted = await sql<{ n: string }>`
      select ((select count(*) from stablecoin_transfers) + (select count(*) from fiat_transfers where status = 'completed'))::text as n`.execute(
      db,
    );
    const completedTransfers = Number(counted.rows[0]!.n);
    const writeRows = rows.filter((r) => WRITE_KINDS.includes(r.kind));
    const writes2xx = writeRows.reduce((sum, r) => sum + summarise(r.runs).ok2xx, 0);
    const inFlightAtStop = writeRows.reduce((sum, r) => sum + r.connections * r.runs.length, 0);
    log(
      `${database}: invariant violations ${violations.length}, completed transfers ${completedTransfers}, 2xx transfer answers sent ${counter.server2xxTransfers}, received ${writes2xx}`,
    );
    if (violations.length > 0) console.error(violations.slice(0, 5));
    await peerpay.close();
    peerpay = undefined;

    const run: DatabaseRun = {
      database,
      rows,
      seedSeconds,
      invariantViolations: violations.length,
      completedTransfers,
      writes2xx,
      server2xxTransfers: counter.server2xxTransfers,
      inFlightAtStop,
      memory,
      pgCeiling: [],
    };
    if (dbUrl) {
      run.pgCeiling.push(...databaseCeiling(dbUrl, 'on'));
      run.pgCeiling.push(...databaseCeiling(dbUrl, 'on', 'raw'));
      if (durabilityOffSetting) run.pgCeiling.push(...databaseCeiling(dbUrl, 'off'));
    }
    return run;
  } finally {
    await peerpay?.close().catch(() => {});
    if (dbName) await dropScratchDatabase(dbName);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function versions() {
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    // Not a git checkout: the report says unknown.
  }
  let postgres = 'unknown';
  try {
    postgres = execFileSync('psql', [ADMIN_URL, '-Atc', 'show server_version'], { encoding: 'utf8' }).trim();
  } catch {
    // psql missing or the server down: the report says unknown.
  }
  const version = (pkg: string) =>
    JSON.parse(fs.readFileSync(path.join(root, 'node_modules', pkg, 'package.json'), 'utf8')).version as string;
  return {
    commit,
    node: process.version,
    postgres,
    pglite: version('@electric-sql/pglite'),
    fastify: version('fastify'),
    autocannon: version('autocannon'),
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: os.totalmem() / 2 ** 30,
  };
}

/**
 * §20's idle RSS: what `npm start` runs, alone on each database, one after the other (they would share
 * the cores' start-up work). Skipped, and reported as not measured, without a build.
 */
async function measureIdleRss(): Promise<Partial<Record<'pglite' | 'postgres', number>>> {
  const figures: Partial<Record<'pglite' | 'postgres', number>> = {};
  if (!fs.existsSync(path.join(root, 'dist', 'main.js'))) {
    log('idle RSS not measured: dist/main.js is missing (npm run build makes it)');
    return figures;
  }
  for (const database of settings.databases) {
    let dbName: string | undefined;
    let url: string | undefined;
    if (database === 'postgres') {
      ({ name: dbName, url } = await createScratchDatabase('peerpay_idle'));
    }
    try {
      figures[database] = await idleRssOfStart(root, url);
      log(`${database}: idle RSS of npm start's node ${figures[database].toFixed(0)} MiB`);
    } finally {
      if (dbName) await dropScratchDatabase(dbName);
    }
  }
  return figures;
}

const started = new Date();
const t0 = performance.now();
log(
  `${settings.users} users, ${settings.seconds} s per measurement × ${settings.repeats} repeats, concurrency ${settings.levels.join(', ')}, databases ${settings.databases.join(', ')}, ` +
    `durability-off part ${settings.durabilityOff ? 'on' : 'off'}; work dir ${work}`,
);
try {
  const http = await httpCeiling();
  const runs: DatabaseRun[] = [];
  for (const database of settings.databases) runs.push(await benchDatabase(database));
  const idleRss = await measureIdleRss();
  const elapsed = (performance.now() - t0) / 1000;
  const day = started.toISOString().slice(0, 10);
  const { markdown, failed } = renderReport({
    settings,
    versions: versions(),
    runs,
    http,
    started,
    elapsedSeconds: elapsed,
    chartFile: `${day}.svg`,
    idleRss,
  });
  const resultsDir = path.resolve(process.env.BENCH_RESULTS_DIR ?? path.join(here, 'results'));
  fs.mkdirSync(resultsDir, { recursive: true });
  const pgCeiling = runs.flatMap((r) => r.pgCeiling);
  const median = (rows: LoadResult[]) => summarise(rows).throughput.median;
  const svg = renderChart({
    levels: settings.levels,
    series: [
      { name: 'HTTP ceiling (bare Fastify)', points: http.map((r) => [r.connections, median(r.runs)] as [number, number]), dashed: true },
      {
        name: 'Raw DB ceiling (pgbench textbook transfer)',
        points: pgCeiling
          .filter((r) => r.kind === 'raw')
          .map((r) => [r.connections, spreadOf(r.runs.map((x) => x.tps)).median] as [number, number]),
        dashed: true,
      },
      ...(['on', 'off'] as const).map((durability) => ({
        name: `DB ceiling (pgbench transfer${durability === 'off' ? ', synchronous_commit=off' : ''})`,
        points: pgCeiling
          .filter((r) => r.durability === durability && r.kind === 'schema')
          .map((r) => [r.connections, spreadOf(r.runs.map((x) => x.tps)).median] as [number, number]),
        dashed: true,
      })),
      ...runs.flatMap((run) => [
        ...(['agent_transfer', 'agent_transfer_keyed', 'fiat_instant', 'quote', 'balance', 'hot_account'] as Kind[]).map((kind) => ({
          name: `${run.database}: ${LABEL[kind]}`,
          points: run.rows
            .filter((r) => r.kind === kind && r.durability === 'on')
            .map((r) => [r.connections, median(r.runs)] as [number, number]),
          dashed: false,
        })),
        {
          name: `${run.database}: ${LABEL.agent_transfer}, synchronous_commit=off`,
          points: run.rows.filter((r) => r.durability === 'off').map((r) => [r.connections, median(r.runs)] as [number, number]),
          dashed: false,
        },
      ]),
    ].filter((series) => series.points.length > 0),
  });
  for (const name of [day, 'latest']) {
    fs.writeFileSync(path.join(resultsDir, `${name}.md`), markdown.replace(`(${day}.svg)`, `(${name}.svg)`));
    fs.writeFileSync(path.join(resultsDir, `${name}.svg`), svg);
  }
  console.log('\n' + markdown);
  if (failed) {
    console.error('bench: a check after the load failed');
    process.exitCode = 1;
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
