// Kysely on embedded PGlite: one connection, lent to one query or transaction at a time, whose
// statements go to PGlite as single protocol messages (pglite-statements.ts). It replaces the
// kysely-pglite-dialect package, whose connection calls PGlite's `query()`.
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type { PGlite } from '@electric-sql/pglite';
import { PgliteStatements } from './pglite-statements.js';

class PgliteConnection implements DatabaseConnection {
  constructor(private readonly statements: PgliteStatements) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.statements.run(query.sql, query.parameters);
    const rows = result.rows as R[];
    return result.affectedRows ? { rows, numAffectedRows: BigInt(result.affectedRows) } : { rows };
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize: number): AsyncIterableIterator<QueryResult<R>> {
    if (!Number.isInteger(chunkSize) || chunkSize <= 0) throw new Error('chunkSize must be a positive integer');
    const { rows } = await this.executeQuery<R>(query);
    for (let i = 0; i < rows.length; i += chunkSize) yield { rows: rows.slice(i, i + chunkSize) };
  }
}

class PgliteDriver implements Driver {
  readonly #connection: PgliteConnection;
  #lent = false;
  readonly #waiting: (() => void)[] = [];

  constructor(private readonly client: PGlite) {
    this.#connection = new PgliteConnection(new PgliteStatements(client));
  }

  async init(): Promise<void> {}

  /** The one connection, once whoever holds it has released it (in the order asked). */
  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.#lent) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#lent = true;
    return this.#connection;
  }

  async releaseConnection(): Promise<void> {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#lent = false;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const begin = settings.isolationLevel ? `start transaction isolation level ${settings.isolationLevel}` : 'begin';
    await connection.executeQuery(CompiledQuery.raw(begin));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async destroy(): Promise<void> {
    if (!this.client.closed) await this.client.close();
  }
}

export class PgliteDialect implements Dialect {
  constructor(private readonly client: PGlite) {}

  createAdapter() {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new PgliteDriver(this.client);
  }

  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }

  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}
