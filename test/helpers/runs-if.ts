// Tests that run only where something is available (PostgreSQL, the PGlite pass) say why they did
// not run: vitest counts a skipped test but names no reason, and a reader of the output should not
// have to open the file to learn that a whole area went untested.

/** `condition` as a boolean for `describe.runIf` / `it.runIf`; when false, prints why on stderr. */
export function runsIf(condition: unknown, why: string): boolean {
  const runs = Boolean(condition);
  if (!runs) console.warn(`skipped: ${why}`);
  return runs;
}

/** The reasons most conditions share; vitest names the file above the line. */
export const POSTGRES_ONLY = 'runs on PostgreSQL only: set DATABASE_URL';
export const PGLITE_PASS_ONLY = 'runs in the PGlite pass only (DATABASE_URL is set)';
