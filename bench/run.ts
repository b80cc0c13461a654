// npm run bench: peerpay's throughput and latency on PGlite and on the local PostgreSQL, each figure
// set beside two ceilings measured in the same run on the same machine: a bare Fastify server
// answering a static JSON route (HTTP) and pgbench doing one transfer's SQL (database). The load
// comes from autocannon in a child process (bench/load.ts). Traffic goes to 127.0.0.1 only.
//
// Settings: BENCH_USERS (10000), BENCH_SECONDS (5), BENCH_CONCURRENCY ("1,8,32"),
// BENCH_DATABASES ("pglite,postgres"), BENCH_PG_ADMIN_URL (postgres://postgres@127.0.0.1:5432/postgres).
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import pg from 'pg';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.js';
import { createDeps } from '../src/deps.js';
import { buildApp } from '../src/app.js';
import { checkLedgerInvariants } from '../src/ledger/ledger-queries.js';
import { seedUsers, type SeededUser } from './seed.js';
import type { LoadResult, Scenario } from './load.js';
import { renderChart } from './chart.js';
import { transferScript } from './pgbench-script.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const USERS = Number(process.env.BENCH_USERS ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const LEVELS = (process.env.BENCH_CONCURRENCY ?? '1,8,32').split(',').map(Number);
const DATABASES = (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(',') as ('pglite' | 'postgres')[];
const ADMIN_URL = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-bench-'));

type Kind = Scenario['kind'];
const WRITE_KINDS: Kind[] = ['agent_transfer', 'fiat_instant', 'hot_account'];
const LABEL: Record<Kind, string> = {
  agent_transfer: 'POST /agent/transfer (random pair)',
  fiat_instant: 'POST /transfers instant (card)',
  quote: 'GET /agent/transfer/quote',
  balance: 'GET /stablecoin/balance',
  hot_account: 'POST /agent/transfer (one sender)',
  static: 'bare Fastify static JSON',
};

interface Row extends LoadResult {
  database: string;
  kind: Kind;
  connections: number;
}

function log(message: string): void {
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

let loadCounter = 0;
async function runLoad(scenario: Scenario): Promise<LoadResult> {
  const n = ++loadCounter;
  const scenarioFile = path.join(work, `scenario-${n}.json`);
  const outFile = path.join(work, `result-${n}.json`);
  fs.writeFileSync(scenarioFile, JSON.stringify(scenario));
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'load.ts'), scenarioFile, outFile], { cwd: root, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`load generator exited with ${code}`))));
  });
  return JSON.parse(fs.readFileSync(outFile, 'utf8'));
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

async function httpCeiling(): Promise<Row[]> {
  const app = Fastify({ logger: false });
  app.get('/static', async () => ({ ok: true, service: 'ceiling', items: [1, 2, 3] }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const rows: Row[] = [];
  for (const connections of LEVELS) {
    const result = await runLoad({ url: `http://127.0.0.1:${address.port}`, kind: 'static', connections, seconds: SECONDS });
    rows.push({ database: '-', kind: 'static', connections, ...result });
    log(`HTTP ceiling c=${connections}: ${result.throughput.toFixed(0)}/s`);
  }
  await app.close();
  return rows;
}

/** pgbench doing what one stablecoin transfer does in SQL, on the seeded database (after the verification). */
function databaseCeiling(url: string, users: number): { connections: number; tps: number; latencyMs: number; failed: number }[] {
  const script = path.join(work, 'transfer.sql');
  fs.writeFileSync(script, transferScript(users));
  const u = new URL(url);
  const results = [];
  for (const connections of LEVELS) {
    const out = execFileSync(
      'pgbench',
      ['-h', u.hostname, '-p', u.port || '5432', '-U', decodeURIComponent(u.username || 'postgres'), '-n', '-M', 'prepared', '-c', String(connections), '-j', String(Math.min(connections, 2)), '-T', String(SECONDS), '-f', script, u.pathname.slice(1)],
      { encoding: 'utf8' },
    );
    const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? NaN);
    const latencyMs = Number(/latency average = ([\d.]+) ms/.exec(out)?.[1] ?? NaN);
    const failed = Number(/number of failed transactions: (\d+)/.exec(out)?.[1] ?? 0);
    results.push({ connections, tps, latencyMs, failed });
    log(`database ceiling c=${connections}: ${tps.toFixed(0)} tps`);
  }
  return results;
}

interface DatabaseRun {
  database: 'pglite' | 'postgres';
  rows: Row[];
  seedSeconds: number;
  invariantViolations: number;
  completedTransfers: number;
  /** 2xx answers received by the load generator. */
  writes2xx: number;
  /** 2xx answers peerpay sent (counted in an onResponse hook). */
  server2xxTransfers: number;
  /** At most this many answers can be lost by stopping the load generator mid-flight (its connections). */
  inFlightAtStop: number;
  pgCeiling?: ReturnType<typeof databaseCeiling>;
}

async function benchDatabase(database: 'pglite' | 'postgres'): Promise<DatabaseRun> {
  const dataDir = path.join(work, `data-${database}`);
  let dbName: string | undefined;
  let dbUrl: string | undefined;
  if (database === 'postgres') {
    dbName = `peerpay_bench_${randomBytes(4).toString('hex')}`;
    await adminQuery(`create database ${dbName}`);
    const u = new URL(ADMIN_URL);
    u.pathname = `/${dbName}`;
    dbUrl = u.toString();
  }
  try {
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ...(dbUrl ? { DATABASE_URL: dbUrl } : {}),
      MASTER_SEED: '0x' + 'be'.repeat(32),
      LOG_LEVEL: 'info',
      PASSWORD_HASH_COST_LOG2: '10',
      RATE_LIMIT_REGISTER_PER_MINUTE: '1000000',
      RATE_LIMIT_CHECK_PER_MINUTE: '1000000',
      RATE_LIMIT_DEFAULT_PER_MINUTE: '1000000',
      JOB_INTERVAL_MS: '3600000',
    });
    const deps = await createDeps(config);
    // Request logs are written (as in production, level info) but to /dev/null, not the terminal.
    const app = await buildApp(deps, { logStream: fs.createWriteStream('/dev/null') });
    // The server's own count of 2xx answers to transfer requests, taken when the answer is handed to
    // the socket (onSend), not when it is delivered (onResponse): when autocannon stops at the end of
    // a measurement it closes its connections with requests in flight, whose answers then never finish.
    let server2xxTransfers = 0;
    app.addHook('onSend', async (request, reply) => {
      const route = request.routeOptions.url;
      if (request.method === 'POST' && (route === '/agent/transfer' || route === '/transfers') && reply.statusCode >= 200 && reply.statusCode < 300) {
        server2xxTransfers++;
      }
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const url = `http://127.0.0.1:${address.port}`;

    const seedStart = performance.now();
    const users: SeededUser[] = await seedUsers(deps, USERS);
    const seedSeconds = (performance.now() - seedStart) / 1000;
    log(`${database}: seeded ${users.length} users in ${seedSeconds.toFixed(1)} s`);
    const usersFile = path.join(work, `users-${database}.json`);
    fs.writeFileSync(usersFile, JSON.stringify(users.map((u) => ({ key: u.key, handle: u.handle }))));

    const rows: Row[] = [];
    const plan: [Kind, number[]][] = [
      ['agent_transfer', LEVELS],
      ['fiat_instant', LEVELS],
      ['quote', LEVELS],
      ['balance', LEVELS],
      ['hot_account', LEVELS.slice(1)],
    ];
    for (const [kind, levels] of plan) {
      for (const connections of levels) {
        const result = await runLoad({ url, kind, connections, seconds: SECONDS, usersFile });
        rows.push({ database, kind, connections, ...result });
        log(`${database} ${kind} c=${connections}: ${result.throughput.toFixed(0)}/s p50 ${result.latencyMedianMs} ms p99 ${result.latencyP99Ms} ms, non-2xx ${result.non2xx}, errors ${result.errors}`);
      }
    }
    await app.close();

    const violations = await checkLedgerInvariants(deps.db);
    const counted = await sql<{ n: string }>`
      select ((select count(*) from stablecoin_transfers) + (select count(*) from fiat_transfers where status = 'completed'))::text as n`.execute(deps.db);
    const completedTransfers = Number(counted.rows[0]!.n);
    const writes2xx = rows.filter((r) => WRITE_KINDS.includes(r.kind)).reduce((sum, r) => sum + r.ok2xx, 0);
    const inFlightAtStop = rows.filter((r) => WRITE_KINDS.includes(r.kind)).reduce((sum, r) => sum + r.connections, 0);
    log(`${database}: invariant violations ${violations.length}, completed transfers ${completedTransfers}, 2xx transfer answers sent ${server2xxTransfers}, received ${writes2xx}`);
    if (violations.length > 0) console.error(violations.slice(0, 5));
    await deps.close();

    const run: DatabaseRun = { database, rows, seedSeconds, invariantViolations: violations.length, completedTransfers, writes2xx, server2xxTransfers, inFlightAtStop };
    if (dbUrl) run.pgCeiling = databaseCeiling(dbUrl, USERS);
    return run;
  } finally {
    if (dbName) await adminQuery(`drop database if exists ${dbName} with (force)`);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function versions() {
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  } catch {}
  let postgres = 'unknown';
  try {
    postgres = execFileSync('psql', [ADMIN_URL, '-Atc', 'show server_version'], { encoding: 'utf8' }).trim();
  } catch {}
  const pglite = JSON.parse(fs.readFileSync(path.join(root, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')).version;
  const fastify = JSON.parse(fs.readFileSync(path.join(root, 'node_modules/fastify/package.json'), 'utf8')).version;
  const autocannon = JSON.parse(fs.readFileSync(path.join(root, 'node_modules/autocannon/package.json'), 'utf8')).version;
  return { commit, node: process.version, postgres, pglite, fastify, autocannon, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? 'unknown' };
}

function checksPass(run: DatabaseRun): boolean {
  const lost = run.server2xxTransfers - run.writes2xx;
  return run.invariantViolations === 0 && run.completedTransfers === run.server2xxTransfers && lost >= 0 && lost <= run.inFlightAtStop;
}

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

function report(runs: DatabaseRun[], http: Row[], started: Date, elapsedSeconds: number): string {
  const v = versions();
  const pgCeiling = runs.find((r) => r.pgCeiling)?.pgCeiling ?? [];
  const httpAt = (c: number) => http.find((r) => r.connections === c)?.throughput ?? NaN;
  const dbAt = (c: number) => pgCeiling.find((r) => r.connections === c)?.tps ?? NaN;
  const lines: string[] = [];
  lines.push(`# peerpay benchmark, ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC`, '');
  lines.push(`- Machine: ${v.cpus} CPUs (${v.cpuModel}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`);
  lines.push(`- Versions: node ${v.node}, PostgreSQL ${v.postgres}, PGlite ${v.pglite}, Fastify ${v.fastify}, autocannon ${v.autocannon}, peerpay commit ${v.commit}`);
  lines.push(`- ${USERS} seeded users (1,000 USDC each, a saved sandbox card each); ${SECONDS} s per measurement; concurrency = autocannon connections = pgbench clients; whole run ${fmt(elapsedSeconds)} s`);
  lines.push('- peerpay in-process (LOG_LEVEL=info to /dev/null, rate limits raised, no background jobs, PostgreSQL pool of 10); the load generator is a separate process on the same 2 cores.');
  lines.push('- `synchronous_commit` on everywhere (server default); no durability is traded.');
  lines.push('- Throughput counts 2xx answers per second. Ratios: peerpay ÷ HTTP ceiling and peerpay ÷ database ceiling at the same concurrency.');
  lines.push('- The database ceiling is PostgreSQL running one stablecoin transfer\'s SQL (2 user rows updated in id order with the no-overdraft condition, the fee row, 2 ledger_transfers rows, 1 stablecoin_transfers row; pgbench -M prepared, run after the load on the same database). PGlite rows are divided by the same PostgreSQL figure (pgbench cannot drive PGlite), and for reads the ratio to a write transaction is only a scale, not a bound.', '');
  lines.push('## Ceilings', '');
  lines.push('| Ceiling | Concurrency | Ops/s | Latency p50 / avg (ms) | p99 (ms) | Failures |', '|---|---:|---:|---:|---:|---:|');
  for (const r of http) lines.push(`| HTTP: bare Fastify static JSON | ${r.connections} | ${fmt(r.throughput)} | ${r.latencyMedianMs} | ${r.latencyP99Ms} | ${r.non2xx + r.errors} |`);
  for (const r of pgCeiling) lines.push(`| Database: pgbench one-transfer transaction (PostgreSQL) | ${r.connections} | ${fmt(r.tps)} | ${fmt(r.latencyMs, 2)} (avg) | n/a | ${r.failed} |`);
  lines.push('', '## peerpay', '');
  lines.push('| Database | Operation | Concurrency | Ops/s | p50 (ms) | p99 (ms) | max (ms) | Non-2xx | Errors | ÷ HTTP ceiling | ÷ DB ceiling |');
  lines.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const run of runs) {
    for (const r of run.rows) {
      lines.push(
        `| ${run.database} | ${LABEL[r.kind]} | ${r.connections} | ${fmt(r.throughput)} | ${r.latencyMedianMs} | ${r.latencyP99Ms} | ${r.latencyMaxMs} | ${r.non2xx} | ${r.errors + r.timeouts} | ${fmt((100 * r.throughput) / httpAt(r.connections), 1)}% | ${fmt((100 * r.throughput) / dbAt(r.connections), 1)}% |`,
      );
    }
  }
  lines.push('', '## Checks after the load', '');
  lines.push('| Database | Seeding (s) | Ledger invariant violations | Completed transfers in the database | 2xx transfer answers sent by peerpay | Match | 2xx received by autocannon | Unanswered at stop (≤ connections) |', '|---|---:|---:|---:|---:|---|---:|---:|');
  for (const run of runs) {
    lines.push(
      `| ${run.database} | ${fmt(run.seedSeconds, 1)} | ${run.invariantViolations} | ${run.completedTransfers} | ${run.server2xxTransfers} | ${checksPass(run) ? 'yes' : 'NO'} | ${run.writes2xx} | ${run.server2xxTransfers - run.writes2xx} (≤ ${run.inFlightAtStop}) |`,
    );
  }
  lines.push('', 'autocannon stops at the end of each measurement without reading the answers still in flight, so it receives up to one answer per connection fewer than peerpay sent; the exact check is against the answers peerpay sent.');
  lines.push('', '![throughput vs concurrency](' + `${started.toISOString().slice(0, 10)}.svg)`, '');
  return lines.join('\n');
}

const started = new Date();
const t0 = performance.now();
log(`${USERS} users, ${SECONDS} s per measurement, concurrency ${LEVELS.join(', ')}, databases ${DATABASES.join(', ')}; work dir ${work}`);
try {
  const http = await httpCeiling();
  const runs: DatabaseRun[] = [];
  for (const database of DATABASES) runs.push(await benchDatabase(database));
  const elapsed = (performance.now() - t0) / 1000;
  const markdown = report(runs, http, started, elapsed);
  const resultsDir = path.join(here, 'results');
  fs.mkdirSync(resultsDir, { recursive: true });
  const day = started.toISOString().slice(0, 10);
  const pgCeiling = runs.find((r) => r.pgCeiling)?.pgCeiling ?? [];
  const svg = renderChart({
    levels: LEVELS,
    series: [
      { name: 'HTTP ceiling (bare Fastify)', points: http.map((r) => [r.connections, r.throughput] as [number, number]), dashed: true },
      { name: 'DB ceiling (pgbench transfer)', points: pgCeiling.map((r) => [r.connections, r.tps] as [number, number]), dashed: true },
      ...runs.flatMap((run) =>
        (['agent_transfer', 'fiat_instant', 'quote', 'balance', 'hot_account'] as Kind[]).map((kind) => ({
          name: `${run.database}: ${LABEL[kind]}`,
          points: run.rows.filter((r) => r.kind === kind).map((r) => [r.connections, r.throughput] as [number, number]),
          dashed: false,
        })),
      ),
    ],
  });
  for (const name of [day, 'latest']) {
    fs.writeFileSync(path.join(resultsDir, `${name}.md`), markdown.replace(`(${day}.svg)`, `(${name}.svg)`));
    fs.writeFileSync(path.join(resultsDir, `${name}.svg`), svg);
  }
  console.log('\n' + markdown);
  const failed = runs.some((r) => !checksPass(r));
  if (failed) {
    console.error('bench: a check after the load failed');
    process.exitCode = 1;
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
