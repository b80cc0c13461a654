// The §20 table npm run bench ends with: each target judged from the run's own figures, a ratio
// computed from CPU per answer and the raw ceiling of the same run, and a figure the run did not
// measure never counted as met.
import { describe, expect, it } from 'vitest';
import { judgeTargets, targetsSection, type MeasuredRow, type TargetsInput } from '../../bench/targets.js';
import type { LoadResult } from '../../bench/load.js';

function load(throughput: number, ok2xx: number, p99 = 10): LoadResult {
  return {
    requests: ok2xx,
    ok2xx,
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    durationSeconds: 3,
    throughput,
    latencyMedianMs: 5,
    latencyP99Ms: p99,
    latencyMaxMs: 50,
    loadCpuSeconds: 1,
  };
}

function row(database: string, kind: string, throughput: number, cpuSeconds?: number, p99?: number): MeasuredRow {
  return {
    database,
    kind,
    connections: 32,
    durability: 'on',
    // 10,000 answers over the repeats: cpuSeconds of each process = 100 µs per answer per 1 s.
    runs: [load(throughput, 5_000, p99), load(throughput, 5_000, p99)],
    ...(cpuSeconds === undefined ? {} : { cpu: { peerpay: cpuSeconds / 2, postgres: cpuSeconds / 2 } }),
  };
}

function input(overrides: Partial<TargetsInput> = {}): TargetsInput {
  return {
    connections: 32,
    http: [row('-', 'static', 20_000)],
    // 200 µs of PostgreSQL per raw transaction, 7,000/s.
    ceilings: [{ connections: 32, durability: 'on', kind: 'raw', runs: [{ tps: 7_000, transactions: 10_000, postgresCpuSeconds: 2 }] }],
    rows: [
      row('postgres', 'agent_transfer', 3_600, 2.8), // 280 µs per answer
      row('postgres', 'agent_transfer_keyed', 3_400, 3.0), // 300 µs
      row('postgres', 'fiat_instant', 1_100, 5.0, 80), // 500 µs
      row('pglite', 'agent_transfer', 2_100),
      row('pglite', 'quote', 6_000),
      row('pglite', 'balance', 4_000),
    ],
    idle: { postgres: 100, pglite: 240 },
    memory: { postgres: { idleMb: 150, peakMb: 270 }, pglite: { idleMb: 300, peakMb: 620 } },
    ...overrides,
  };
}

describe('the §20 targets of one bench run', () => {
  it('computes each figure from the run and judges it against its target', () => {
    const rows = judgeTargets(input());
    expect(rows.map((r) => [r.measured, r.met])).toEqual([
      ['280 ÷ 200 µs = 1.40×', true],
      ['3,600 ÷ 7,000/s = 0.51×', true],
      ['300 vs 280 µs = +7.1%', true],
      ['500 ÷ 280 µs = 1.8×', true],
      ['80 ms; 1,100/s', true],
      ['2,100/s', true],
      ['30.0% / 20.0% (6,000 and 4,000 ÷ 20,000/s)', false],
      ['100 / 240 MB (`npm start`, 30 s after it answers)', true],
      ['PostgreSQL 270 MB (1.80× its idle in the bench process) / PGlite 620 MB (2.07×)', false],
    ]);
  });

  it('says not measured, never met, for what the run left out', () => {
    const rows = judgeTargets(input({ rows: [], ceilings: [], idle: {}, memory: {} }));
    expect(rows.every((r) => r.met === undefined && r.measured === 'not measured')).toBe(true);
    expect(targetsSection(input({ rows: [], ceilings: [], idle: {}, memory: {} })).join('\n')).toContain('0 of 9 met');
  });

  it('fails a ratio just over its bound', () => {
    const rows = judgeTargets(
      input({ rows: [row('postgres', 'agent_transfer', 3_600, 3.02), row('postgres', 'agent_transfer_keyed', 3_400, 3.35)] }),
    );
    expect(rows[0]).toMatchObject({ measured: '302 ÷ 200 µs = 1.51×', met: false });
    expect(rows[2]).toMatchObject({ measured: '335 vs 302 µs = +10.9%', met: false });
  });
});
