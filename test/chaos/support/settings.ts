// The chaos suite's settings, shared by every chaos test: one seed for the whole run (printed, so
// that a failure can be replayed with CHAOS_SEED=...), and a profile that bounds how long each
// test runs: `short` for CI on every submission, `full` for `npm run test:chaos`.
export type ChaosProfile = 'short' | 'full';

export interface ChaosSettings {
  readonly seed: number;
  readonly profile: ChaosProfile;
  /** PostgreSQL server (admin URL) the process-level tests create their databases on. */
  readonly databaseUrl: string;
}

export function chaosSettings(): ChaosSettings {
  const seed = Number(process.env.CHAOS_SEED);
  if (!Number.isSafeInteger(seed)) throw new Error('CHAOS_SEED is not set: run the chaos suite with `npm run test:chaos`');
  const profile = process.env.CHAOS_PROFILE === 'short' ? 'short' : 'full';
  return { seed, profile, databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' };
}

/** Picks the short or the full value of a bound (operations, kills, seconds, runs). */
export function byProfile<T>(values: { short: T; full: T }): T {
  return values[chaosSettings().profile];
}

/** A small, fast, seeded PRNG (mulberry32): the same seed gives the same schedule of faults. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A stream derived from the run's seed and a label, so that each test has its own reproducible one. */
export function randomFor(label: string): () => number {
  let hash = chaosSettings().seed >>> 0;
  for (const char of label) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return seededRandom(hash);
}
