// The peerpay instances the security checks share, so that the short profile starts as few as it
// can: A logs at trace level with its own master seed, B runs over the same database (a second pool
// on PostgreSQL, the same PGlite otherwise) and the same chain. Every check adds the secrets it handled to `secrets`;
// the logs check, run last, searches everything A logged for each of them.
import type { TestServer } from '../../helpers/test-server.js';
import { startTestServer } from '../../helpers/test-server.js';
import { openTestDatabase } from '../../helpers/test-database.js';
import { openDatabase, type Database } from '../../../src/db/database.js';
import { randomFor } from './settings.js';

export const world = {
  a: undefined as unknown as TestServer,
  b: undefined as unknown as TestServer,
  masterSeed: '',
  secrets: [] as { what: string; value: string }[],
};

/** Notes a secret the logs must never show, and returns it. */
export function secret(what: string, value: string): string {
  world.secrets.push({ what, value });
  return value;
}

let database: (Database & { url: string | undefined }) | undefined;
let second: Database | undefined;
const kept = (db: Database): Database => ({ ...db, close: async () => {} });

export async function startWorld(): Promise<void> {
  const random = randomFor('security-world');
  world.masterSeed = Array.from({ length: 32 }, () =>
    Math.floor(random() * 256)
      .toString(16)
      .padStart(2, '0'),
  ).join('');
  database = await openTestDatabase();
  second = database.url ? await openDatabase({ url: database.url, poolSize: 5 }) : kept(database);
  // Limits high enough for the checks' own traffic; the limits themselves are checked elsewhere.
  const env = {
    RATE_LIMIT_DEFAULT_PER_MINUTE: '100000',
    RATE_LIMIT_CHECK_PER_MINUTE: '100000',
    RATE_LIMIT_REGISTER_PER_MINUTE: '100000',
    MASTER_SEED: world.masterSeed,
  };
  // B on A's chain: one installation is one database and one chain (two embedded chains started
  // a second apart have different blocks, and the installation identity rightly refuses the second).
  world.a = await startTestServer({ ...env, LOG_LEVEL: 'trace' }, { database: kept(database) });
  world.b = await startTestServer({ ...env, LOG_LEVEL: 'warn' }, { database: kept(second), chain: world.a.deps.chain });
}

export async function stopWorld(): Promise<void> {
  // B first: it borrows A's chain.
  await world.b?.close();
  await world.a?.close();
  if (database?.url) await second?.close();
  await database?.close();
}
