// Each figure of npm run bench is measured several times; what the report shows of those repeats:
// the median (robust to one disturbed run on a shared machine) and the spread, min to max.
import type { LoadResult } from './load.js';

export interface Spread {
  median: number;
  min: number;
  max: number;
}

export function median(values: readonly number[]): number {
  const finite = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (finite.length === 0) return NaN;
  const mid = Math.floor(finite.length / 2);
  return finite.length % 2 ? finite[mid]! : (finite[mid - 1]! + finite[mid]!) / 2;
}

export function spreadOf(values: readonly number[]): Spread {
  const finite = values.filter(Number.isFinite);
  return { median: median(finite), min: finite.length ? Math.min(...finite) : NaN, max: finite.length ? Math.max(...finite) : NaN };
}

/** The repeats of one load figure, summarised. */
export interface LoadSummary {
  throughput: Spread;
  latencyMedianMs: number;
  latencyP99Ms: number;
  /** The worst single request over all repeats. */
  latencyMaxMs: number;
  ok2xx: number;
  non2xx: number;
  errors: number;
}

export function summarise(runs: readonly LoadResult[]): LoadSummary {
  return {
    throughput: spreadOf(runs.map((r) => r.throughput)),
    latencyMedianMs: median(runs.map((r) => r.latencyMedianMs)),
    latencyP99Ms: median(runs.map((r) => r.latencyP99Ms)),
    latencyMaxMs: Math.max(...runs.map((r) => r.latencyMaxMs)),
    ok2xx: runs.reduce((sum, r) => sum + r.ok2xx, 0),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    errors: runs.reduce((sum, r) => sum + r.errors + r.timeouts, 0),
  };
}
