// Test files whose outcome does not depend on the database a run uses. CI's PostgreSQL pass
// (TEST_PASS=postgres in .ci/run) leaves them to the PGlite pass instead of running them twice: on a
// 2-core machine every second spent repeating them is a second of CI (DESIGN's 15-minute budget).
// A file belongs here only for one of these reasons; anything else runs in both passes.
export const DATABASE_INDEPENDENT_FILES: readonly string[] = [
  // No database at all: the chain, the Stripe stand-in, and pure functions.
  'test/chain/**',
  'test/contract/**',
  'test/clients/verify-webhook.test.ts',
  'test/property/circle-amounts.test.ts',
  'test/console/console-cookies.test.ts',
  'test/unit/anvil-platforms.test.ts',
  'test/unit/bench-rss.test.ts',
  'test/unit/bench-targets.test.ts',
  'test/unit/circle-config.test.ts',
  'test/unit/coalesce.test.ts',
  'test/unit/config-schema.test.ts',
  'test/unit/config-table.test.ts',
  'test/unit/console/svg-chart.test.ts',
  'test/unit/cursor.test.ts',
  'test/unit/dependency-engines.test.ts',
  'test/unit/destination-guard.test.ts',
  'test/unit/ids.test.ts',
  'test/unit/limit-settings.test.ts',
  'test/unit/limiter.test.ts',
  'test/unit/log-redaction.test.ts',
  'test/unit/money-amount.test.ts',
  'test/unit/money-fees.test.ts',
  'test/unit/money-minimums.test.ts',
  'test/unit/polygon-address.test.ts',
  'test/unit/rate-limit-store.test.ts',
  'test/unit/sanctions-screening.test.ts',
  'test/unit/stablecoin-amounts.test.ts',
  'test/unit/start-command.test.ts',
  // Modules and start-up checks without a database: what the service graph loads, the data
  // directory's checks, the seed-use check against a fake chain, Stripe's risk events at its stand-in.
  'test/unit/load-on-first-use.test.ts',
  'test/unit/start-up-checks.test.ts',
  'test/unit/seed-use.test.ts',
  'test/unit/stripe-card-risk-events.test.ts',
  'test/unit/validation-messages.test.ts',
  // PGlite's own: the template a first start unpacks, and processes started without DATABASE_URL
  // (or with one that names a closed port).
  'test/unit/pglite-template.test.ts',
  'test/unit/pglite-statements.test.ts',
  'test/e2e/start-up.test.ts',
  'test/e2e/database-unreachable.test.ts',
  'test/e2e/readme-going-live.test.ts',
  // What a browser or the CLI's processes add (rendering, forms without script, accessibility, a
  // terminal's output) is the same on either database; every page, action and command they drive
  // is an HTTP call that the console's and the API's HTTP tests make on PostgreSQL too.
  'test/console/*-browser.test.ts',
  'test/clients/cli*.test.ts',
];
