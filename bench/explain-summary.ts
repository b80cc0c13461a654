// The summary bench:explain writes (explain-batch.ts): EXPLAIN (ANALYZE, FORMAT JSON) of many
// batches' write statements, added up per transfer by table and by trigger.

/** A plan node as PostgreSQL's JSON format gives it (the fields read here). */
export interface PlanNode {
  'Node Type': string;
  Operation?: string;
  'Relation Name'?: string;
  'Subplan Name'?: string;
  /** Absent with TIMING OFF. */
  'Actual Total Time'?: number;
  'Actual Rows': number;
  'Actual Loops': number;
  'Shared Written Blocks'?: number;
  Plans?: PlanNode[];
}

/** A trigger's calls during the statement; a constraint's trigger is named by its constraint. */
interface Trigger {
  'Trigger Name': string;
  'Constraint Name'?: string;
  Relation: string;
  /** Absent with TIMING OFF. */
  Time?: number;
  Calls: number;
}

function triggerName(t: Trigger): string {
  return t['Constraint Name'] ? `constraint ${t['Constraint Name']}` : `trigger ${t['Trigger Name']}`;
}

interface Explained {
  Plan: PlanNode;
  Triggers?: Trigger[];
  'Planning Time': number;
  'Execution Time': number;
}

/** One batch's EXPLAIN output: a one-element array (pg parses the json; PGlite may hand it over as text). */
export interface ExplainedBatch {
  plan: Explained[] | string;
}

interface Options {
  label: string;
  database: string;
  users: number;
  kind: string;
  wanted: number;
  /** False when EXPLAIN read no clock around each node: only the whole statement's time is known. */
  timing: boolean;
}

interface Sum {
  ms: number;
  rows: number;
  written: number;
  calls: number;
}

// The table whose rows count a batch's transfers, by load kind.
const RECORDS: Record<string, string> = {
  agent_transfer: 'stablecoin_transfers',
  agent_transfer_keyed: 'stablecoin_transfers',
  hot_account: 'stablecoin_transfers',
  fiat_instant: 'fiat_transfers',
  fiat_instant_keyed: 'fiat_transfers',
};
// Plan trees are a few dozen nodes; a deeper one is not walked further.
const MAX_DEPTH = 64;

function explainedOf(batch: ExplainedBatch): Explained {
  const parsed = typeof batch.plan === 'string' ? (JSON.parse(batch.plan) as Explained[]) : batch.plan;
  return parsed[0]!;
}

/** Milliseconds in the CTE scans under `node` (not under another insert or update): time spent running other clauses. */
function cteScansUnder(node: PlanNode, depth = 0): number {
  if (depth > MAX_DEPTH) return 0;
  let ms = 0;
  for (const child of node.Plans ?? []) {
    if (child['Node Type'] === 'CTE Scan') ms += (child['Actual Total Time'] ?? 0) * child['Actual Loops'];
    else if (child['Node Type'] !== 'ModifyTable') ms += cteScansUnder(child, depth + 1);
  }
  return ms;
}

/**
 * An insert's or update's own time: its inclusive time without the CTE scans under it. A clause
 * that reads another clause's rows (the webhook deliveries read the events inserted) runs that
 * clause when it first reads it, and that time is the other clause's node's already.
 */
function ownTime(node: PlanNode): number {
  return (node['Actual Total Time'] ?? 0) * node['Actual Loops'] - cteScansUnder(node);
}

/** Every insert, update or delete of the tree, with its inclusive time (its input's scans included). */
function modifications(node: PlanNode, found: PlanNode[] = [], depth = 0): PlanNode[] {
  if (depth > MAX_DEPTH) return found;
  if (node['Node Type'] === 'ModifyTable') found.push(node);
  for (const child of node.Plans ?? []) modifications(child, found, depth + 1);
  return found;
}

function add(sums: Map<string, Sum>, name: string, sum: Partial<Sum>): void {
  const s = sums.get(name) ?? { ms: 0, rows: 0, written: 0, calls: 0 };
  sums.set(name, {
    ms: s.ms + (sum.ms ?? 0),
    rows: s.rows + (sum.rows ?? 0),
    written: s.written + (sum.written ?? 0),
    calls: s.calls + (sum.calls ?? 0),
  });
}

/** One line per node, indented by depth: what one batch's plan looked like. */
function outline(node: PlanNode, depth = 0, lines: string[] = []): string[] {
  if (depth > MAX_DEPTH) return lines;
  const what = [node['Subplan Name'] ? `${node['Subplan Name']}: ` : '', node['Node Type'], node.Operation ? ` (${node.Operation})` : ''];
  const on = node['Relation Name'] ? ` on ${node['Relation Name']}` : '';
  const time = node['Actual Total Time'] === undefined ? '' : `, ${(node['Actual Total Time'] * node['Actual Loops']).toFixed(3)} ms`;
  lines.push(`${'  '.repeat(depth)}${what.join('')}${on}: ${node['Actual Rows'] * node['Actual Loops']} rows${time}`);
  for (const child of node.Plans ?? []) outline(child, depth + 1, lines);
  return lines;
}

export function planSummary(batches: readonly ExplainedBatch[], options: Options): string {
  const records = RECORDS[options.kind] ?? 'stablecoin_transfers';
  const sums = new Map<string, Sum>();
  let transfers = 0;
  let execution = 0;
  let planning = 0;
  const explained = batches.map(explainedOf);
  for (const e of explained) {
    execution += e['Execution Time'];
    planning += e['Planning Time'];
    for (const node of modifications(e.Plan)) {
      const name = `${node.Operation ?? 'Modify'} ${node['Relation Name'] ?? '?'}`;
      if (node['Relation Name'] === records) transfers += node['Actual Rows'];
      add(sums, name, { ms: ownTime(node), rows: node['Actual Rows'], written: node['Shared Written Blocks'] ?? 0 });
    }
    for (const t of e.Triggers ?? []) add(sums, `${triggerName(t)} (${t.Relation})`, { ms: t.Time ?? 0, calls: t.Calls });
  }
  const perTransfer = (ms: number) => (transfers > 0 ? ((ms * 1000) / transfers).toFixed(1) : 'n/a');
  const counted = [...sums.values()].reduce((n, s) => n + s.ms, 0);
  const rows = [...sums].sort((a, b) => b[1].ms - a[1].ms);
  const largest = explained.reduce<Explained | undefined>(
    (best, e) => (!best || e['Execution Time'] > best['Execution Time'] ? e : best),
    undefined,
  );
  return [
    `# EXPLAIN ANALYZE of the group commit's write statement: ${options.label}`,
    '',
    `- ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${options.database}, ${options.users} seeded users, load \`${options.kind}\` at 32 connections, one batch at a time (npm run bench:explain).`,
    `- ${explained.length} batches explained (of ${options.wanted} asked), ${transfers} transfers (rows of ${records}), ${(transfers / Math.max(explained.length, 1)).toFixed(1)} per batch; the generic plan (plan_cache_mode = force_generic_plan), as the named statement runs.`,
    options.timing
      ? `- Execution ${perTransfer(execution)} µs per transfer, EXPLAIN's own timing included (it reads the clock around every node); planning ${perTransfer(planning)} µs, which the named statement does not repeat.`
      : `- Execution ${perTransfer(execution)} µs per transfer, EXPLAIN (TIMING OFF): the clock read around the whole statement only, so no node's time below; planning ${perTransfer(planning)} µs, which the named statement does not repeat.`,
    '',
    '| Node or trigger | µs per transfer | Share of execution | Rows per transfer | Trigger calls per transfer | Blocks written to make room |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map(
      ([name, s]) =>
        `| ${name} | ${perTransfer(s.ms)} | ${execution > 0 ? ((100 * s.ms) / execution).toFixed(1) : '0'}% | ${transfers > 0 ? (s.rows / transfers).toFixed(2) : '–'} | ${transfers > 0 && s.calls > 0 ? (s.calls / transfers).toFixed(2) : '–'} | ${s.written} |`,
    ),
    `| the rest (the final select, counting the clauses' rows) | ${perTransfer(Math.max(execution - counted, 0))} | ${execution > 0 ? ((100 * Math.max(execution - counted, 0)) / execution).toFixed(1) : '0'}% | | | |`,
    '',
    "An insert's or update's time includes the scans that feed it (the update's look-up of the accounts, for one), not the other clauses whose rows it reads.",
    '',
    '## The slowest batch, node by node',
    '',
    '```',
    ...(largest ? outline(largest.Plan) : []),
    ...(largest
      ? (largest.Triggers ?? []).map(
          (t) => `${triggerName(t)} (${t.Relation}): ${t.Calls} calls${t.Time === undefined ? '' : `, ${t.Time.toFixed(3)} ms`}`,
        )
      : []),
    '```',
    '',
  ].join('\n');
}
