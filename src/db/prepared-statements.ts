// Named prepared statements on PostgreSQL connections (decision 0051). Kysely's pg driver sends
// every statement unnamed, so PostgreSQL parses and analyses (and plans) it again each time, even
// the group commit's statements, whose text is the same for every batch (decision 0049). Here a
// connection's queries whose text has come often enough are sent named instead: pg then sends the
// text once per connection, and PostgreSQL keeps its parse tree (and, once it finds a generic plan
// as good, the plan) for the connection's life.
//
// Bounded: a connection names at most MAX_NAMED_PER_CONNECTION texts, first come, and only texts
// seen HOT_AFTER times in the process (counted in a table of at most MAX_COUNTED texts, emptied
// when full), so statements whose text varies stay unnamed and cost no memory on either side.
// Left unnamed too: statements without parameters (begin, commit: the simple protocol, nothing to
// keep), `select *` at the top, whose result columns a migration can change under a kept plan, and
// an ON CONFLICT naming a partial index by its condition (as pglite-statements.ts leaves it).
// Should a kept statement still meet such a change (a rolling migration), PostgreSQL refuses it
// ("cached plan must not change result type"): the connection forgets that text, which goes under a
// new name next time. A statement refused so outside a transaction did nothing, so it is sent once
// more at once, unnamed, and the request never sees the change; inside a transaction the refusal
// has already aborted the transaction, so it is the transaction's caller that sees it.
// PGlite names its statements in its own dialect (pglite-statements.ts, decision 0055).
import type pg from 'pg';

export const MAX_NAMED_PER_CONNECTION = 64;
const HOT_AFTER = 3;
const MAX_COUNTED = 1_024;
const SELECT_STAR = /^\s*select\s+\*/i;
// A generic plan cannot match a parameter in an ON CONFLICT's index condition to the partial index.
const PARTIAL_CONFLICT_TARGET = /on\s+conflict\s*\([^)]*\)\s*where/i;

/** How often each text has been sent, over the process's connections. */
export interface TextCounts {
  seen(text: string): number;
}

export function createTextCounts(): TextCounts {
  const counts = new Map<string, number>();
  return {
    seen(text) {
      if (!counts.has(text) && counts.size >= MAX_COUNTED) counts.clear();
      const n = (counts.get(text) ?? 0) + 1;
      counts.set(text, n);
      return n;
    },
  };
}

/** The names one connection has given, text → name. */
interface Named {
  names: Map<string, string>;
  next: number;
}

type Query = (...args: unknown[]) => unknown;

/** Makes `client` send its hot parameterised statements named; called once per new connection. */
export function prepareHotStatements(client: pg.ClientBase, counts: TextCounts): void {
  const named: Named = { names: new Map(), next: 0 };
  const query = client.query.bind(client) as Query;
  const wrapped: Query = (config, values, callback) => {
    if (typeof config !== 'string' || !Array.isArray(values) || values.length === 0 || callback !== undefined) {
      return query(config, values, callback);
    }
    const name = nameFor(named, config, counts);
    if (name === null) return query(config, values);
    return (query({ name, text: config, values }) as Promise<unknown>).catch((error: unknown) => {
      if (!planChanged(error)) throw error;
      named.names.delete(config);
      // 'I' (idle) both before the statement and after its refusal only when no transaction was
      // open: the statement ran alone and failed whole. In a transaction it is 'T' before, 'E' after.
      if (client.getTransactionStatus?.() !== 'I') throw error;
      return query(config, values);
    });
  };
  client.query = wrapped as typeof client.query;
}

function nameFor(named: Named, text: string, counts: TextCounts): string | null {
  const name = named.names.get(text);
  if (name !== undefined) return name;
  if (named.next >= MAX_NAMED_PER_CONNECTION || SELECT_STAR.test(text) || PARTIAL_CONFLICT_TARGET.test(text)) return null;
  if (counts.seen(text) < HOT_AFTER) return null;
  // Names are never reused on a connection: a forgotten one may still be prepared there.
  const fresh = `peerpay_${named.next++}`;
  named.names.set(text, fresh);
  return fresh;
}

function planChanged(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '0A000';
}
