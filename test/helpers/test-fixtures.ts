// What test/helpers/global-setup.ts prepares once per run and hands every test file through
// vitest's provide/inject: a migrated database template, and one embedded chain per worker slot.

/** The master seed of every test server (unless a test sets its own): the shared chains are made for it. */
export const TEST_MASTER_SEED = '0x' + 'ab'.repeat(32);

export interface SharedChainFixture {
  /** JSON-RPC URL of the chain of each worker slot: index VITEST_POOL_ID - 1. */
  rpcUrls: string[];
  /** Directory of the files `slot-<VITEST_POOL_ID>.json` that hold each chain's current base snapshot id. */
  snapshotDir: string;
}

export interface TestFixtures {
  /** PGlite: a file written by dumpDataDir() of a migrated database; each test database is loaded from it. */
  pgliteTemplateFile?: string;
  /** PostgreSQL: a migrated database that each test database is created from (`create database … template …`). */
  postgresTemplate?: string;
  sharedChain?: SharedChainFixture;
}

declare module 'vitest' {
  export interface ProvidedContext {
    peerpayTestFixtures: TestFixtures;
  }
}
