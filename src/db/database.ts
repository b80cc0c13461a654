// Database factory: PostgreSQL through `pg` when a URL is given, otherwise embedded PGlite.
// Both drivers read int8 as `bigint`, never as a lossy `number`.
import fs from 'node:fs';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import type { DB } from './schema.js';
import { migrateToLatest } from './migrate.js';
import { ensureReachable } from './database-reachable.js';
import { createTextCounts, prepareHotStatements } from './prepared-statements.js';
import { PgliteDialect } from './pglite-dialect.js';

export type Db = Kysely<DB>;

export interface Database {
  readonly db: Db;
  readonly kind: 'postgres' | 'pglite';
  close(): Promise<void>;
}

const INT8_OID = 20;

export interface DatabaseOptions {
  /** PostgreSQL connection string; when absent PGlite is used. */
  url?: string | undefined;
  /** Directory for PGlite's files; absent means an in-memory database (tests). */
  pgliteDir?: string | undefined;
  /** A PGlite data directory dumped with dumpDataDir() to start from instead of an empty cluster (tests clone one migrated template). */
  pgliteTemplate?: Blob | undefined;
  poolSize?: number;
  /** PostgreSQL: send hot statements as named prepared statements (decision 0051); true unless told. */
  preparedStatements?: boolean;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const database = options.url
    ? openPostgres(options.url, options.poolSize ?? 10, options.preparedStatements ?? true)
    : await openPglite(options.pgliteDir, options.pgliteTemplate);
  try {
    // A server that does not answer is said so, before a migration could be blamed for it.
    if (options.url) await ensureReachable(database.db, options.url);
    await migrateToLatest(database.db);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

function openPostgres(url: string, poolSize: number, preparedStatements: boolean): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // A database host that stops answering (gone from the network, a failover under way) must
    // cost a request seconds and a 503, not hang it: pg's default waits for a connection for ever.
    connectionTimeoutMillis: 5_000,
    // And a connection whose peer vanished without a reset is found dead by TCP, not kept.
    keepAlive: true,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary'): ((value: string) => unknown) =>
        oid === INT8_OID
          ? (value: string) => BigInt(value)
          : (pg.types.getTypeParser(oid, format) as (value: string) => unknown)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client that loses its connection emits 'error' on the pool; without a listener that
  // would crash the process. The next query gets a fresh connection.
  pool.on('error', () => {});
  // A client that loses its connection while checked out (inside a transaction, between two
  // queries) emits 'error' on itself, where the pool listens no more: unheard, that killed the
  // process. The request's next query fails instead, and the pool drops the broken client when
  // it is released.
  // Each new connection also sends the statements that come again and again (the group commit's)
  // as named prepared statements, a bounded number of them (prepared-statements.ts), unless
  // DATABASE_PREPARED_STATEMENTS=off (a pooler in transaction mode would hand them to other sessions).
  const counts = createTextCounts();
  pool.on('connect', (client) => {
    client.on('error', () => {});
    if (preparedStatements) prepareHotStatements(client, counts);
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return { db, kind: 'postgres', close: () => db.destroy() };
}

/**
 * PostgreSQL's memory settings inside PGlite (decision 0054). PGlite's cluster comes with
 * shared_buffers = 128 MB, sized for a server among many connections, and PostgreSQL touches all
 * of it when it starts, so it is resident for the life of the process. 32 MB cost no transfer
 * throughput in the profiler runs of decision 0054 with 10,000 users; 16 MB measured slower.
 */
export function pgliteMemorySettings(): string[] {
  return ['-c', 'shared_buffers=32MB'];
}

async function openPglite(dir: string | undefined, template: Blob | undefined): Promise<Database> {
  if (dir) fs.mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir ?? 'memory://', {
    parsers: { [INT8_OID]: (value: string) => BigInt(value) },
    startParams: [...PGlite.defaultStartParams, ...pgliteMemorySettings()],
    ...(template ? { loadDataDir: template } : {}),
  });
  const db = new Kysely<DB>({ dialect: new PgliteDialect(client) });
  return { db, kind: 'pglite', close: () => db.destroy() };
}
