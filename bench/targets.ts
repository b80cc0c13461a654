// DESIGN §20's targets, judged from one run of npm run bench: the table the report ends with
// (figure, target, measured, met). Every figure is computed from this run only, so that ratios
// compare parts measured minutes apart on the same machine. A figure the run did not measure (a
// database or concurrency left out by the settings) is "not measured" and never counted as met.
import { spreadOf, summarise } from './stats.js';
import type { LoadResult } from './load.js';

/** What one figure of the run needs: its repeats and the CPU peerpay and PostgreSQL used over them. */
export interface MeasuredRow {
  database: string;
  kind: string;
  connections: number;
  durability: 'on' | 'off';
  runs: LoadResult[];
  cpu?: { peerpay: number; postgres: number };
}

export interface RawCeiling {
  connections: number;
  durability: 'on' | 'off';
  kind: 'schema' | 'raw';
  runs: { tps: number; transactions: number; postgresCpuSeconds: number }[];
}

/** Resident memory of the bench process serving one database (peerpay in-process), in MiB. */
export interface MemoryFigure {
  idleMb: number;
  peakMb: number;
}

export interface TargetsInput {
  rows: MeasuredRow[];
  http: MeasuredRow[];
  ceilings: RawCeiling[];
  /** Idle RSS of what `npm start` runs, alone (bench/idle-rss.ts), in MiB. */
  idle: Partial<Record<'pglite' | 'postgres', number>>;
  /** The bench process's RSS right after peerpay started in it and its peak during the load. */
  memory: Partial<Record<'pglite' | 'postgres', MemoryFigure>>;
  /** The concurrency §20 names (32). */
  connections: number;
}

export interface TargetRow {
  figure: string;
  target: string;
  measured: string;
  /** undefined: not measured in this run. */
  met: boolean | undefined;
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** Microseconds of peerpay and PostgreSQL CPU per 2xx answer over all repeats of a figure. */
export function cpuPerAnswerUs(row: MeasuredRow): number | undefined {
  const answers = row.runs.reduce((n, r) => n + r.ok2xx, 0);
  if (!row.cpu || answers === 0) return undefined;
  return (1e6 * (row.cpu.peerpay + row.cpu.postgres)) / answers;
}

function rawPerTransactionUs(ceiling: RawCeiling): number | undefined {
  const transactions = ceiling.runs.reduce((n, r) => n + r.transactions, 0);
  if (transactions === 0) return undefined;
  return (1e6 * ceiling.runs.reduce((n, r) => n + r.postgresCpuSeconds, 0)) / transactions;
}

export function judgeTargets(input: TargetsInput): TargetRow[] {
  const c = input.connections;
  const find = (database: string, kind: string) =>
    input.rows.find((r) => r.database === database && r.kind === kind && r.connections === c && r.durability === 'on');
  const throughput = (row: MeasuredRow | undefined) => (row ? summarise(row.runs).throughput.median : undefined);
  const raw = input.ceilings.find((x) => x.kind === 'raw' && x.durability === 'on' && x.connections === c);
  const rawUs = raw && rawPerTransactionUs(raw);
  const rawTps = raw && spreadOf(raw.runs.map((r) => r.tps)).median;
  const httpTps = throughput(input.http.find((r) => r.connections === c));
  const pgTransfer = find('postgres', 'agent_transfer');
  const transferUs = pgTransfer && cpuPerAnswerUs(pgTransfer);
  const keyedUs = ((row) => row && cpuPerAnswerUs(row))(find('postgres', 'agent_transfer_keyed'));
  const card = find('postgres', 'fiat_instant');
  const cardUs = card && cpuPerAnswerUs(card);
  const cardSummary = card && summarise(card.runs);
  const rows: TargetRow[] = [];
  const add = (figure: string, target: string, measured: [string, boolean] | undefined) =>
    rows.push({ figure, target, measured: measured?.[0] ?? 'not measured', met: measured?.[1] });

  add(
    `PostgreSQL \`POST /agent/transfer\` c=${c}: (peerpay + PostgreSQL) CPU ÷ raw transaction's CPU`,
    '≤ 1.5× (aim 1.0×)',
    transferUs !== undefined && rawUs !== undefined
      ? [`${fmt(transferUs)} ÷ ${fmt(rawUs)} µs = ${fmt(transferUs / rawUs, 2)}×`, transferUs / rawUs <= 1.5]
      : undefined,
  );
  const pgTps = throughput(pgTransfer);
  add(
    'the same: throughput ÷ raw ceiling',
    '≥ 0.5×',
    pgTps !== undefined && rawTps !== undefined
      ? [`${fmt(pgTps)} ÷ ${fmt(rawTps)}/s = ${fmt(pgTps / rawTps, 2)}×`, pgTps / rawTps >= 0.5]
      : undefined,
  );
  add(
    'with Idempotency-Key: CPU above unkeyed',
    '≤ +10%',
    keyedUs !== undefined && transferUs !== undefined
      ? [`${fmt(keyedUs)} vs ${fmt(transferUs)} µs = ${signedPercent(keyedUs / transferUs - 1)}`, keyedUs / transferUs - 1 <= 0.1]
      : undefined,
  );
  add(
    `\`POST /transfers\` instant (sandbox card) c=${c}: CPU ÷ stablecoin transfer's`,
    '≤ 2×',
    cardUs !== undefined && transferUs !== undefined
      ? [`${fmt(cardUs)} ÷ ${fmt(transferUs)} µs = ${fmt(cardUs / transferUs, 1)}×`, cardUs / transferUs <= 2]
      : undefined,
  );
  add(
    `the same: p99 c=${c}; throughput (PostgreSQL)`,
    '< 100 ms; ≥ 1,000/s',
    cardSummary
      ? [
          `${fmt(cardSummary.latencyP99Ms)} ms; ${fmt(cardSummary.throughput.median)}/s`,
          cardSummary.latencyP99Ms < 100 && cardSummary.throughput.median >= 1000,
        ]
      : undefined,
  );
  const pgliteTps = throughput(find('pglite', 'agent_transfer'));
  add(
    `PGlite \`POST /agent/transfer\` c=${c}`,
    '≥ 2,000/s',
    pgliteTps !== undefined ? [`${fmt(pgliteTps)}/s`, pgliteTps >= 2000] : undefined,
  );
  const quote = throughput(find('pglite', 'quote'));
  const balance = throughput(find('pglite', 'balance'));
  add(
    'PGlite quotes and balance reads ÷ HTTP ceiling',
    '≥ 25%',
    quote !== undefined && balance !== undefined && httpTps !== undefined
      ? [
          `${percent(quote / httpTps)} / ${percent(balance / httpTps)} (${fmt(quote)} and ${fmt(balance)} ÷ ${fmt(httpTps)}/s)`,
          quote / httpTps >= 0.25 && balance / httpTps >= 0.25,
        ]
      : undefined,
  );
  const idle = input.idle;
  add(
    'idle RSS, PostgreSQL / PGlite',
    '≤ 120 / ≤ 250 MB',
    idle.postgres !== undefined && idle.pglite !== undefined
      ? [
          `${fmt(idle.postgres)} / ${fmt(idle.pglite)} MB (\`npm start\`, 30 s after it answers)`,
          idle.postgres <= 120 && idle.pglite <= 250,
        ]
      : undefined,
  );
  const { postgres, pglite } = input.memory;
  add(
    'peak RSS during the bench',
    'reported, ≤ 2× idle',
    postgres && pglite
      ? [
          `PostgreSQL ${fmt(postgres.peakMb)} MB (${fmt(postgres.peakMb / postgres.idleMb, 2)}× its idle in the bench process) / PGlite ${fmt(pglite.peakMb)} MB (${fmt(pglite.peakMb / pglite.idleMb, 2)}×)`,
          postgres.peakMb <= 2 * postgres.idleMb && pglite.peakMb <= 2 * pglite.idleMb,
        ]
      : undefined,
  );
  return rows;
}

function percent(share: number): string {
  return `${fmt(100 * share, 1)}%`;
}

function signedPercent(share: number): string {
  return `${share >= 0 ? '+' : '−'}${fmt(Math.abs(100 * share), 1)}%`;
}

/** The section the report ends with. */
export function targetsSection(input: TargetsInput): string[] {
  const rows = judgeTargets(input);
  return [
    '',
    '## DESIGN §20 targets',
    '',
    `Judged from this run alone (bench/targets.ts): ${rows.filter((r) => r.met).length} of ${rows.length} met.`,
    '',
    '| Figure | Target | Measured | Met |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.figure} | ${r.target} | ${r.measured} | ${r.met === undefined ? 'not measured' : r.met ? 'yes' : 'no'} |`),
  ];
}
