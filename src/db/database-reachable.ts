// Whether the PostgreSQL server answers at all, asked once before anything else is: a server that
// is down, a wrong host or port, refused credentials. Said in one line naming where it was looked
// for (host and port only: never the URL, which may hold a password) and what the driver said.
import { sql, type Kysely } from 'kysely';
import { parse } from 'pg-connection-string';

export class DatabaseUnreachableError extends Error {}

/** `host:port` of a PostgreSQL connection string, with pg's defaults (localhost, 5432). */
export function databaseAddress(url: string): string {
  const { host, port } = parse(url);
  return `${host || 'localhost'}:${port || '5432'}`;
}

/** The driver's reason; a connection tried on several addresses fails with an AggregateError and no message of its own. */
function reasonOf(error: unknown): string {
  if (error instanceof AggregateError && error.message === '' && error.errors.length > 0) return reasonOf(error.errors[0]);
  if (error instanceof Error) return error.message || (error as NodeJS.ErrnoException).code || error.name;
  return String(error);
}

export async function ensureReachable<Schema>(db: Kysely<Schema>, url: string): Promise<void> {
  try {
    await sql`select 1`.execute(db);
  } catch (error) {
    throw new DatabaseUnreachableError(`cannot reach the database at ${databaseAddress(url)}: ${reasonOf(error)}`, { cause: error });
  }
}
