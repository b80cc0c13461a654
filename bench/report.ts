// The Markdown report of npm run bench: ceilings, peerpay's figures as medians of the repeats with
// their spread and their ratio to each ceiling, the durability-off part in tables of its own, and
// the checks after the load.
import os from 'node:os';
import type { CpuTimes } from './cpu.js';
import type { LoadResult, Scenario } from './load.js';
import type { RssFigure } from './rss.js';
import { spreadOf, summarise, type Spread } from './stats.js';
import { targetsSection } from './targets.js';

export type Kind = Scenario['kind'];
export type Durability = 'on' | 'off';

export const LABEL: Record<Kind, string> = {
  agent_transfer: 'POST /agent/transfer (random pair)',
  agent_transfer_keyed: 'POST /agent/transfer (random pair, Idempotency-Key)',
  fiat_instant: 'POST /transfers instant (card)',
  fiat_instant_keyed: 'POST /transfers instant (card, Idempotency-Key)',
  quote: 'GET /agent/transfer/quote',
  balance: 'GET /stablecoin/balance',
  hot_account: 'POST /agent/transfer (one sender)',
  static: 'bare Fastify static JSON',
};

export interface Settings {
  users: number;
  seconds: number;
  repeats: number;
  levels: number[];
  databases: ('pglite' | 'postgres')[];
  durabilityOff: boolean;
}

export interface Row {
  database: string;
  kind: Kind;
  connections: number;
  /** `off`: synchronous_commit=off on peerpay's connections. */
  durability: Durability;
  runs: LoadResult[];
  /** CPU of peerpay's process and of PostgreSQL over all the runs (bench/cpu.ts). */
  cpu?: CpuTimes;
}

/** `schema`: one stablecoin transfer's SQL in peerpay's tables; `raw`: the textbook transfer on two tables of its own. */
export type CeilingKind = 'schema' | 'raw';

export interface PgCeilingRun {
  connections: number;
  durability: Durability;
  kind: CeilingKind;
  runs: { tps: number; latencyMs: number; failed: number; transactions: number; postgresCpuSeconds: number }[];
}

export interface DatabaseRun {
  database: 'pglite' | 'postgres';
  rows: Row[];
  seedSeconds: number;
  invariantViolations: number;
  completedTransfers: number;
  /** 2xx answers received by the load generator. */
  writes2xx: number;
  /** 2xx answers peerpay sent (counted in an onSend hook). */
  server2xxTransfers: number;
  /** At most this many answers can be lost by stopping the load generator mid-flight (its connections). */
  inFlightAtStop: number;
  /** RSS of the bench process (peerpay in-process) right after peerpay started, and its peak during the load. */
  memory?: RssFigure;
  pgCeiling: PgCeilingRun[];
}

export interface Versions {
  commit: string;
  node: string;
  postgres: string;
  pglite: string;
  fastify: string;
  autocannon: string;
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
}

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const pct = (part: number, whole: number) => `${fmt((100 * part) / whole, 1)}%`;
/** "min–max (±x%)": the half-range as a share of the median. */
const spread = (s: Spread) => `${fmt(s.min)}–${fmt(s.max)} (±${fmt((50 * (s.max - s.min)) / s.median, 0)}%)`;

export function checksPass(run: DatabaseRun): boolean {
  const lost = run.server2xxTransfers - run.writes2xx;
  return run.invariantViolations === 0 && run.completedTransfers === run.server2xxTransfers && lost >= 0 && lost <= run.inFlightAtStop;
}

export function renderReport(input: {
  settings: Settings;
  versions: Versions;
  runs: DatabaseRun[];
  http: Row[];
  started: Date;
  elapsedSeconds: number;
  chartFile: string;
  /** Idle RSS of what `npm start` runs, per database (bench/idle-rss.ts), when measured. */
  idleRss?: Partial<Record<'pglite' | 'postgres', number>>;
}): { markdown: string; failed: boolean } {
  const { settings, versions: v, runs, http } = input;
  const pgCeiling = runs.flatMap((r) => r.pgCeiling);
  const tps = (c: PgCeilingRun) => spreadOf(c.runs.map((r) => r.tps));
  const httpAt = (c: number) => summarise(http.find((r) => r.connections === c)?.runs ?? []).throughput.median;
  const dbAt = (c: number, durability: Durability, kind: CeilingKind = 'schema') => {
    const found = pgCeiling.find((r) => r.connections === c && r.durability === durability && r.kind === kind);
    return found ? tps(found).median : NaN;
  };
  const hasOff = pgCeiling.some((r) => r.durability === 'off');
  const lines: string[] = [];
  lines.push(`# peerpay benchmark, ${input.started.toISOString().slice(0, 16).replace('T', ' ')} UTC`, '');
  lines.push(
    `- Machine: ${v.cpus} CPUs (${v.cpuModel}), ${v.memoryGiB.toFixed(1)} GiB; load average at the end ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}`,
  );
  lines.push(
    `- Versions: node ${v.node}, PostgreSQL ${v.postgres}, PGlite ${v.pglite}, Fastify ${v.fastify}, autocannon ${v.autocannon}, peerpay commit ${v.commit}`,
  );
  lines.push(
    `- ${settings.users} seeded users (1,000 USDC each, a saved sandbox card each); every figure measured ${settings.repeats} times for ${settings.seconds} s, back to back, except the transfer, keyed transfer and card transfer, which take turns one repeat each (decision 0072); ` +
      `concurrency = autocannon connections = pgbench clients; whole run ${fmt(input.elapsedSeconds)} s`,
  );
  lines.push(
    '- Figures are the median of the repeats; "spread" is their min–max and the half-range as ± a share of the median. Latency p50 and p99 are medians of the repeats, max the worst of all.',
  );
  lines.push(
    '- peerpay in-process (LOG_LEVEL=info to /dev/null, rate limits raised, no background jobs, PostgreSQL pool of 10); the load generator is a separate process on the same cores.',
  );
  lines.push(
    "- `synchronous_commit` on (the server default, checked on peerpay's connections) for every figure except the separate durability-off tables at the end.",
  );
  lines.push(
    '- Throughput counts 2xx answers per second. Ratios: peerpay ÷ HTTP ceiling and peerpay ÷ database ceiling at the same concurrency.',
  );
  lines.push(
    "- The database ceiling is PostgreSQL running one stablecoin transfer's SQL (2 user rows updated in id order with the no-overdraft condition, the fee row, 2 ledger_transfers rows, 1 stablecoin_transfers row; pgbench -M prepared, run after the load on the same database). " +
      'The raw database ceiling is the textbook transfer on two tables of its own in the same database (10,000 accounts: 2 account rows updated in id order with the no-overdraft condition, 1 transfer row inserted, one transaction each, `synchronous_commit` on): what PostgreSQL itself does per durable transfer on this machine, with no shared fee row. ' +
      'PGlite rows are divided by the same PostgreSQL figure (pgbench cannot drive PGlite), and for reads the ratio to a write transaction is only a scale, not a bound.',
    '',
  );
  lines.push('## Ceilings', '');
  lines.push(
    '| Ceiling | Concurrency | Ops/s (median) | Spread | Latency p50 / avg (ms) | p99 (ms) | Failures |',
    '|---|---:|---:|---|---:|---:|---:|',
  );
  for (const r of http) {
    const s = summarise(r.runs);
    lines.push(
      `| HTTP: bare Fastify static JSON | ${r.connections} | ${fmt(s.throughput.median)} | ${spread(s.throughput)} | ${s.latencyMedianMs} | ${s.latencyP99Ms} | ${s.non2xx + s.errors} |`,
    );
  }
  for (const r of pgCeiling.filter((c) => c.durability === 'on')) {
    const avg = spreadOf(r.runs.map((x) => x.latencyMs)).median;
    const name =
      r.kind === 'raw' ? 'Raw database: pgbench textbook transfer (PostgreSQL)' : 'Database: pgbench one-transfer transaction (PostgreSQL)';
    lines.push(
      `| ${name} | ${r.connections} | ${fmt(tps(r).median)} | ${spread(tps(r))} | ${fmt(avg, 2)} (avg) | n/a | ${r.runs.reduce((n, x) => n + x.failed, 0)} |`,
    );
  }
  lines.push('', '## peerpay', '');
  lines.push(
    '| Database | Operation | Concurrency | Ops/s (median) | Spread | p50 (ms) | p99 (ms) | max (ms) | Non-2xx | Errors | ÷ HTTP ceiling | ÷ DB ceiling | ÷ raw DB ceiling |',
  );
  lines.push('|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const run of runs) {
    for (const r of run.rows.filter((x) => x.durability === 'on')) {
      const s = summarise(r.runs);
      lines.push(
        `| ${run.database} | ${LABEL[r.kind]} | ${r.connections} | ${fmt(s.throughput.median)} | ${spread(s.throughput)} | ${s.latencyMedianMs} | ${s.latencyP99Ms} | ${s.latencyMaxMs} | ${s.non2xx} | ${s.errors} | ` +
          `${pct(s.throughput.median, httpAt(r.connections))} | ${pct(s.throughput.median, dbAt(r.connections, 'on'))} | ${pct(s.throughput.median, dbAt(r.connections, 'on', 'raw'))} |`,
      );
    }
  }
  if (hasOff) {
    lines.push('', '## Durability traded: synchronous_commit=off (not comparable with the tables above)', '');
    lines.push(
      "These rows give up durability for speed: with `synchronous_commit=off` (set on these connections only) PostgreSQL answers a COMMIT before its WAL reaches disk, so a crash of the database server can lose the last fraction of a second of acknowledged transfers (never half a transfer: the ledger stays consistent). peerpay does not run like this; the tables only show how much of a transfer's time is the flush. Same database, users and settings as above, measured after them.",
      '',
    );
    lines.push(
      '| Figure | Concurrency | Ops/s (median) | Spread | p50 / avg (ms) | p99 (ms) | Errors | Same figure with synchronous_commit on | ÷ DB ceiling (off) |',
    );
    lines.push('|---|---:|---:|---|---:|---:|---:|---:|---:|');
    for (const r of pgCeiling.filter((c) => c.durability === 'off' && c.kind === 'schema')) {
      const avg = spreadOf(r.runs.map((x) => x.latencyMs)).median;
      lines.push(
        `| Database ceiling: pgbench one-transfer transaction, synchronous_commit=off | ${r.connections} | ${fmt(tps(r).median)} | ${spread(tps(r))} | ${fmt(avg, 2)} (avg) | n/a | ${r.runs.reduce((n, x) => n + x.failed, 0)} | ${fmt(dbAt(r.connections, 'on'))} | – |`,
      );
    }
    for (const run of runs) {
      for (const r of run.rows.filter((x) => x.durability === 'off')) {
        const s = summarise(r.runs);
        const durable = run.rows.find((x) => x.durability === 'on' && x.kind === r.kind && x.connections === r.connections);
        lines.push(
          `| ${run.database} ${LABEL[r.kind]}, synchronous_commit=off | ${r.connections} | ${fmt(s.throughput.median)} | ${spread(s.throughput)} | ${s.latencyMedianMs} | ${s.latencyP99Ms} | ${s.errors + s.non2xx} | ` +
            `${durable ? fmt(summarise(durable.runs).throughput.median) : 'n/a'} | ${pct(s.throughput.median, dbAt(r.connections, 'off'))} |`,
        );
      }
    }
  }
  lines.push(...cpuSection(runs, http, pgCeiling, v.cpus, Math.max(...settings.levels)));
  lines.push(...memorySection(runs));
  lines.push('', '## Checks after the load', '');
  lines.push(
    '| Database | Seeding (s) | Ledger invariant violations | Completed transfers in the database | 2xx transfer answers sent by peerpay | Match | 2xx received by autocannon | Unanswered at stop (≤ connections × repeats) |',
    '|---|---:|---:|---:|---:|---|---:|---:|',
  );
  for (const run of runs) {
    lines.push(
      `| ${run.database} | ${fmt(run.seedSeconds, 1)} | ${run.invariantViolations} | ${run.completedTransfers} | ${run.server2xxTransfers} | ${checksPass(run) ? 'yes' : 'NO'} | ${run.writes2xx} | ${run.server2xxTransfers - run.writes2xx} (≤ ${run.inFlightAtStop}) |`,
    );
  }
  lines.push(
    '',
    'The checks cover every transfer of the run, the durability-off part included. autocannon stops at the end of each measurement without reading the answers still in flight, so it receives up to one answer per connection fewer than peerpay sent; the exact check is against the answers peerpay sent.',
  );
  lines.push('', `![throughput vs concurrency (medians)](${input.chartFile})`);
  // DESIGN §20: the report ends with one table, figure, target, measured, met.
  lines.push(
    ...targetsSection({
      rows: runs.flatMap((r) => r.rows),
      http,
      ceilings: pgCeiling,
      idle: input.idleRss ?? {},
      memory: Object.fromEntries(runs.flatMap((r) => (r.memory ? [[r.database, r.memory]] : []))),
      connections: Math.max(...settings.levels),
    }),
    '',
  );
  return { markdown: lines.join('\n'), failed: runs.some((r) => !checksPass(r)) };
}

/** Idle and peak RSS per database, and their ratio (DESIGN §20: peak ≤ 2× idle). */
function memorySection(runs: DatabaseRun[]): string[] {
  const measured = runs.filter((r): r is DatabaseRun & { memory: RssFigure } => r.memory !== undefined);
  if (measured.length === 0) return [];
  return [
    '',
    '## Memory',
    '',
    "Resident memory (RSS) of the process serving the requests: peerpay runs in-process, so the figures include the bench's own modules (tsx, the seeding code) and, for PGlite, the database. " +
      'Idle: right after peerpay started, after full garbage collections (what the start-up left, PGlite’s initdb among it, is not counted). Peak: from the end of the seeding to the end of the load, every figure of that database included ' +
      "(for PostgreSQL also the second peerpay of the durability-off part); VmHWM is the kernel's high-water mark (reset at the start), samples the largest of 100 ms samples. " +
      "Before start is what the process held just before peerpay started (after the same collections): the bench itself and what an earlier database left (PGlite's heap is not all returned to the system when it closes), so the idle figure of a database measured after another is not that database's alone. " +
      '`npm start` alone (node with its flags, `dist/main.js`) is how DESIGN §20 measures idle RSS (decisions 0054, 0068); the peak ÷ idle ratio is what this table is for.',
    '',
    '| Database | RSS before start (MiB) | Idle RSS after start (MiB) | Peak RSS during the load (MiB) | Peak ÷ idle | Peak from |',
    '|---|---:|---:|---:|---:|---|',
    ...measured.map(
      (r) =>
        `| ${r.database} | ${fmt(r.memory.beforeMb)} | ${fmt(r.memory.idleMb)} | ${fmt(r.memory.peakMb)} | ${fmt(r.memory.peakMb / r.memory.idleMb, 2)}× | ${r.memory.peakSource} |`,
    ),
  ];
}

/**
 * Where the CPU goes at one concurrency: microseconds of CPU per 2xx answer in peerpay's process
 * (PGlite runs inside it), in PostgreSQL and in the load generator, and what that allows: on
 * `cores` cores fully used, at most cores ÷ total answers per second, whatever the batching.
 */
function cpuSection(runs: DatabaseRun[], http: Row[], pgCeiling: PgCeilingRun[], cores: number, connections: number): string[] {
  const us = (seconds: number, answers: number) => fmt((1e6 * seconds) / answers);
  const lines = [
    '',
    `## Where the CPU goes (${connections} connections)`,
    '',
    `CPU time (user and system, from the kernel's counters: bench/cpu.ts) over all repeats of a figure, divided by its 2xx answers. "peerpay" is the process serving the requests (for PGlite, the database too; for the HTTP ceiling, the bare Fastify server); "PostgreSQL" is every PostgreSQL server process. With ${cores} cores fully used, total µs per answer bounds the throughput at ${cores} × 1,000,000 ÷ total, however requests are batched: a figure's measured ops/s beside that bound shows how much of the machine it used.`,
    '',
    '| Figure | Ops/s (median) | peerpay µs | PostgreSQL µs | Load generator µs | Total µs per answer | Bound at full CPU (ops/s) |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  const row = (label: string, r: Row) => {
    if (!r.cpu) return;
    const s = summarise(r.runs);
    const answers = r.runs.reduce((n, x) => n + x.ok2xx, 0);
    const load = r.runs.reduce((n, x) => n + (x.loadCpuSeconds ?? NaN), 0);
    const total = r.cpu.peerpay + r.cpu.postgres + load;
    lines.push(
      `| ${label} | ${fmt(s.throughput.median)} | ${us(r.cpu.peerpay, answers)} | ${us(r.cpu.postgres, answers)} | ${us(load, answers)} | ${us(total, answers)} | ${fmt((cores * answers) / total)} |`,
    );
  };
  for (const r of http.filter((x) => x.connections === connections)) row('HTTP ceiling: bare Fastify static JSON', r);
  for (const run of runs) {
    for (const r of run.rows.filter((x) => x.durability === 'on' && x.connections === connections))
      row(`${run.database} ${LABEL[r.kind]}`, r);
  }
  for (const c of pgCeiling.filter((x) => x.kind === 'raw' && x.durability === 'on' && x.connections === connections)) {
    const transactions = c.runs.reduce((n, x) => n + x.transactions, 0);
    const postgres = c.runs.reduce((n, x) => n + x.postgresCpuSeconds, 0);
    lines.push(
      `| Raw database: pgbench textbook transfer (PostgreSQL; pgbench's own CPU not counted) | ${fmt(spreadOf(c.runs.map((x) => x.tps)).median)} | – | ${us(postgres, transactions)} | – | ${us(postgres, transactions)} | ${fmt((cores * transactions) / postgres)} |`,
    );
  }
  return lines;
}
