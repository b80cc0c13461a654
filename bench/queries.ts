// npm run bench:queries: how many SQL statements (each one a round trip to PostgreSQL) one request
// of each benchmarked kind costs, and which ones one transfer runs: the first thing to look at when
// profiling the transfer path. Counts the `pg` client's queries in-process on a fresh database.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { InjectOptions } from 'fastify';
import { loadConfig } from '../src/config.js';
import { createDeps } from '../src/deps.js';
import { buildApp } from '../src/app.js';
import { seedUsers } from './seed.js';
import { createScratchDatabase, dropScratchDatabase } from './scratch-database.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const REQUESTS = 100;
// `npm run bench:queries -- before` writes bench/results/queries-before.md; the default is queries-latest.md.
const OUTPUT_NAME = process.argv[2] ?? 'latest';
if (!/^[a-z0-9-]+$/.test(OUTPUT_NAME)) throw new Error(`output name must be [a-z0-9-]+, got ${OUTPUT_NAME}`);

const seen: string[] = [];
const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const first = args[0] as string | { text?: string };
  seen.push(typeof first === 'string' ? first : (first?.text ?? '?'));
  return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-bench-q-'));
const { name: dbName, url } = await createScratchDatabase('peerpay_bench_q');
try {
  const config = loadConfig({
    PORT: '0',
    DATA_DIR: dataDir,
    DATABASE_URL: url,
    MASTER_SEED: '0x' + 'be'.repeat(32),
    LOG_LEVEL: 'silent',
    PASSWORD_HASH_COST_LOG2: '10',
    RATE_LIMIT_DEFAULT_PER_MINUTE: '1000000',
  });
  const deps = await createDeps(config);
  const app = await buildApp(deps);
  await app.ready();
  const users = await seedUsers(deps, 200);
  const pick = () => users[Math.floor(Math.random() * users.length)]!;
  const pair = () => {
    const s = pick();
    let r = pick();
    while (r === s) r = pick();
    return [s, r] as const;
  };
  let keyCounter = 0;
  const withKey = (options: InjectOptions): InjectOptions => ({
    ...options,
    headers: { ...options.headers, 'idempotency-key': `bench-q-${++keyCounter}` },
  });
  const agentTransfer = (): InjectOptions => {
    const [s, r] = pair();
    return {
      method: 'POST',
      url: '/agent/transfer',
      headers: { authorization: `Bearer ${s.key}` },
      payload: { to: r.handle, amount: 0.01, currency: 'USDC' },
    };
  };
  const fiatInstant = (): InjectOptions => {
    const [s, r] = pair();
    return {
      method: 'POST',
      url: '/transfers',
      headers: { authorization: `Bearer ${s.key}` },
      payload: { recipientHandle: r.handle, amount: 1, currency: 'USD', paymentMethod: 'instant' },
    };
  };
  const kinds: Record<string, () => InjectOptions> = {
    'POST /agent/transfer': agentTransfer,
    'POST /agent/transfer with Idempotency-Key': () => withKey(agentTransfer()),
    'POST /transfers (instant)': fiatInstant,
    'POST /transfers (instant) with Idempotency-Key': () => withKey(fiatInstant()),
    'GET /agent/transfer/quote': () => {
      const [s, r] = pair();
      return { method: 'GET', url: `/agent/transfer/quote?to=${r.handle}&amount=10`, headers: { authorization: `Bearer ${s.key}` } };
    },
    'GET /stablecoin/balance': () => ({ method: 'GET', url: '/stablecoin/balance', headers: { authorization: `Bearer ${pick().key}` } }),
  };
  const lines = [
    '# SQL statements per request (PostgreSQL)',
    '',
    `Counted over ${REQUESTS} sequential requests of each kind, peerpay commit ${execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: here, encoding: 'utf8' }).trim()}; each statement is one round trip (BEGIN and COMMIT included).`,
    '',
    '| Request | Statements per request |',
    '|---|---:|',
  ];
  const samples: Record<string, string[]> = {};
  for (const [name, make] of Object.entries(kinds)) {
    seen.length = 0;
    for (let i = 0; i < REQUESTS; i++) {
      const response = await app.inject(make());
      if (response.statusCode >= 300) throw new Error(`${name}: ${response.statusCode} ${response.body}`);
    }
    lines.push(`| ${name} | ${(seen.length / REQUESTS).toFixed(1)} |`);
    seen.length = 0;
    await app.inject(make());
    samples[name] = [...seen];
  }
  for (const name of ['POST /agent/transfer', 'POST /transfers (instant)', 'POST /agent/transfer with Idempotency-Key']) {
    lines.push('', `## The statements of one ${name}`, '', '```sql');
    for (const q of samples[name]!) lines.push(q.replace(/\s+/g, ' ').trim().slice(0, 200));
    lines.push('```');
  }
  const text = lines.join('\n') + '\n';
  fs.mkdirSync(path.join(here, 'results'), { recursive: true });
  fs.writeFileSync(path.join(here, 'results', `queries-${OUTPUT_NAME}.md`), text);
  console.log(text);
  await app.close();
  await deps.close();
} finally {
  await dropScratchDatabase(dbName);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
