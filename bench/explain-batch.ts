// npm run bench:explain -- <label>: where the group commit's write statement spends its time, by
// plan node. A CPU profile shows the statement as one block (PGlite's WebAssembly, or another
// process for PostgreSQL), and bench:profile's by-statement table stops at the statement; this
// runs EXPLAIN ANALYZE on real batches during a load and sums, per transfer, each table's insert or
// update and each trigger.
//
// How a batch is explained without changing what it does: the batch's transaction takes a
// savepoint just before its lock statement (`... for no key update`), and the statements after it
// are remembered. At the write statement, `EXPLAIN (ANALYZE)` runs it under the generic plan (the
// plan PostgreSQL keeps for the named statement after its first runs), then the savepoint is
// rolled back, which undoes the explained writes and the locks taken after it, the remembered
// statements run again and the write statement itself runs, as it would have. The lock is taken
// inside the savepoint so that the explained update meets rows its own subtransaction locked, as
// the real one does (rows locked by the parent would make each update create a multixact).
// Between the rollback and the lock taken again, another batch could move the same accounts, so
// the load runs with one batch at a time (GROUP_COMMIT_CONCURRENCY=1): batches are larger than
// in `npm run bench`, which the per-transfer figures allow for, not the per-batch ones.
//
// Settings (environment): EXPLAIN_DATABASE (postgres, or pglite), EXPLAIN_USERS (10000, as the
// bench seeds), EXPLAIN_BATCHES (40 explained), EXPLAIN_KIND (agent_transfer, or another transfer
// kind of bench/load.ts), EXPLAIN_TIMING (on; off reads the clock only around the whole statement). Writes bench/results/explain-<label>.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PgliteStatements } from '../src/db/pglite-statements.js';
import { startPeerpay } from './peerpay-process.js';
import { seedUsers } from './seed.js';
import { createScratchDatabase, dropScratchDatabase } from './scratch-database.js';
import type { Scenario } from './load.js';
import { planSummary, type ExplainedBatch } from './explain-summary.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const label = process.argv[2] ?? 'latest';
if (!/^[a-z0-9_-]+$/.test(label)) throw new Error(`label must be [a-z0-9_-]+, got ${label}`);
const database = process.env.EXPLAIN_DATABASE ?? 'postgres';
const users = Number(process.env.EXPLAIN_USERS ?? 10_000);
const wanted = Number(process.env.EXPLAIN_BATCHES ?? 40);
const kind = (process.env.EXPLAIN_KIND ?? 'agent_transfer') as Scenario['kind'];
// EXPLAIN_TIMING=off: no clock read around each node, so only the statement's whole time (which the
// per-node timing inflates most where a node handles many rows, a sequential scan for one).
const timing = process.env.EXPLAIN_TIMING !== 'off';
// The load runs in rounds of this many seconds until enough batches are explained, at most MAX_ROUNDS.
const ROUND_SECONDS = 3;
const MAX_ROUNDS = 20;
// At most this many statements are remembered between the savepoint and the write statement (a
// batch runs three or four); a transaction that runs more is not explained.
const MAX_REMEMBERED = 16;

const LOCK = /^\s*select\b[\s\S]*\bfrom ledger_accounts\b[\s\S]*\bfor no key update\s*$/i;
const WRITE = /^\s*with\b[\s\S]*\bmoved as \([\s\S]*\brecorded as \(/i;
const END = /^\s*(commit|rollback)\s*$/i;

type Run = (text: string, values: readonly unknown[]) => Promise<{ rows: unknown[] }>;

/** One connection's batch being explained: the statements run since its savepoint. */
interface Pending {
  remembered: [string, readonly unknown[]][];
}

const explained: ExplainedBatch[] = [];
let armed = false;
const pending = new WeakMap<object, Pending>();

/** Runs `text` on a connection, explaining it first when it is an armed batch's write statement. */
async function through(connection: object, run: Run, text: string, values: readonly unknown[]): Promise<{ rows: unknown[] }> {
  const batch = pending.get(connection);
  if (armed && !batch && explained.length < wanted && LOCK.test(text)) {
    await run('savepoint peerpay_explain', []);
    pending.set(connection, { remembered: [] });
  } else if (batch && WRITE.test(text)) {
    pending.delete(connection);
    await run('set plan_cache_mode = force_generic_plan', []);
    const result = await run(`explain (analyze, buffers, timing ${timing ? 'on' : 'off'}, format json) ${text}`, values);
    // Undoes the explained writes, the locks after the savepoint and the setting (a SET is undone with its subtransaction).
    await run('rollback to savepoint peerpay_explain', []);
    explained.push({ plan: (result.rows[0] as Record<string, unknown>)['QUERY PLAN'] } as ExplainedBatch);
    for (const [again, againValues] of batch.remembered) await run(again, againValues);
  } else if (batch && (END.test(text) || batch.remembered.length >= MAX_REMEMBERED)) {
    pending.delete(connection);
  } else if (batch) {
    batch.remembered.push([text, values]);
  }
  return run(text, values);
}

function explainPglite(): void {
  const prototype = PgliteStatements.prototype as unknown as {
    run: (text: string, values: readonly unknown[]) => Promise<{ rows: unknown[] }>;
  };
  const original = prototype.run;
  prototype.run = function (this: PgliteStatements, text: string, values: readonly unknown[]) {
    return through(this, (t, v) => original.call(this, t, v), text, values);
  };
}

function explainPostgres(): void {
  type Query = (this: pg.Client, ...args: unknown[]) => unknown;
  const original = pg.Client.prototype.query as unknown as Query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [config, values, callback] = args;
    // Callbacks are pg's own (a pool's checks); peerpay's statements are awaited.
    if (typeof callback === 'function' || typeof values === 'function') return original.apply(this, args);
    const text = typeof config === 'string' ? config : (config as { text?: string } | undefined)?.text;
    if (typeof text !== 'string') return original.apply(this, args);
    const run: Run = (t, v) =>
      (t === text ? original.apply(this, args) : original.call(this, t, v.length > 0 ? v : undefined)) as Promise<{ rows: unknown[] }>;
    const given = Array.isArray(values) ? values : ((config as { values?: unknown[] }).values ?? []);
    return through(this, run, text, given);
  } as typeof pg.Client.prototype.query;
}

function load(url: string, usersFile: string, work: string): Promise<void> {
  const scenarioFile = path.join(work, 'scenario.json');
  const scenario: Scenario = { url, kind, connections: 32, seconds: ROUND_SECONDS, repeats: 1, usersFile };
  fs.writeFileSync(scenarioFile, JSON.stringify(scenario));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'load.ts'), scenarioFile, path.join(work, 'result.json')], {
      cwd: root,
      stdio: 'ignore',
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`load exited ${code}`))));
  });
}

process.env.GROUP_COMMIT_CONCURRENCY = '1';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-explain-'));
let dbName: string | undefined;
let dbUrl: string | undefined;
if (database === 'postgres') {
  ({ name: dbName, url: dbUrl } = await createScratchDatabase('peerpay_explain'));
  explainPostgres();
} else {
  explainPglite();
}
const peerpay = await startPeerpay(path.join(work, 'data'), dbUrl, { server2xxTransfers: 0 });
try {
  const seeded = await seedUsers(peerpay.deps, users);
  const usersFile = path.join(work, 'users.json');
  fs.writeFileSync(usersFile, JSON.stringify(seeded.map((u) => ({ key: u.key, handle: u.handle }))));
  // A first round unexplained: statements named and generic plans chosen, known accounts cached.
  await load(peerpay.url, usersFile, work);
  armed = true;
  for (let round = 0; round < MAX_ROUNDS && explained.length < wanted; round++) await load(peerpay.url, usersFile, work);
  const summary = planSummary(explained, { label, database, users, kind, wanted, timing });
  const out = path.join(here, 'results', `explain-${label}.md`);
  fs.writeFileSync(out, summary);
  console.log(summary);
  console.log(`summary: ${out}`);
} finally {
  armed = false;
  await peerpay.close();
  if (dbName) await dropScratchDatabase(dbName);
}
