// Counts the statements a piece of code runs through a database handle (one result each), for
// tests that assert how many round trips a read costs: `counter.db(handle)` is the handle to give
// the code under test, `counter.during(work)` how many statements `work` ran through it.
import type { Kysely, KyselyPlugin } from 'kysely';

export interface StatementCounter {
  /** The handle, counting every statement run through it. */
  db<T extends Kysely<any>>(handle: T): T;
  /** Statements run through counted handles while `work` ran. */
  during(work: () => Promise<unknown>): Promise<number>;
  /** Statements counted so far. */
  readonly count: number;
}

export function statementCounter(): StatementCounter {
  let count = 0;
  const plugin: KyselyPlugin = {
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      count += 1;
      return args.result;
    },
  };
  return {
    db: (handle) => handle.withPlugin(plugin) as typeof handle,
    async during(work) {
      const before = count;
      await work();
      return count - before;
    },
    get count() {
      return count;
    },
  };
}
