// How a statement goes to embedded PGlite: as one protocol message, one call into its engine.
//
// PGlite's own `query()` makes six calls into the engine for every statement (parse, describe the
// statement, bind, describe the portal, execute, sync), and each call has a fixed cost in the
// engine's main loop that dwarfs a small statement's work; it also parses and plans the text
// anew every time. Here a statement that reads or writes rows is parsed once under a name, with its
// parameter and result types kept, and every later call is bind, execute and sync in one message:
// about a seventh of the CPU for a key look-up (decision 0055). Parameters are serialised, and
// results parsed, with the client's own serialisers and parsers, by the types PGlite itself uses.
//
// Named statements keep PostgreSQL's plan cache (generic plans once they cost no more than custom
// ones), with two exceptions sent unnamed, planned with their values every time:
// - an ON CONFLICT naming a partial unique index by its condition: a generic plan cannot match a
//   parameter in that condition to the index ("no unique or exclusion constraint matching");
// - anything that is not a plain read or write (DDL, SET, transaction control). A DDL statement
//   also forgets every named statement: a table it changed may no longer give the columns kept.
import { protocol, type PGlite } from '@electric-sql/pglite';

type Message = Awaited<ReturnType<PGlite['execProtocol']>>['messages'][number];

interface Prepared {
  name: string;
  /** Parameter types, as PostgreSQL inferred them: their serialisers. */
  paramTypes: number[];
  /** Result columns and their types, or null for a statement that returns no rows. */
  fields: { name: string; dataTypeID: number }[] | null;
}

export interface StatementResult {
  rows: Record<string, unknown>[];
  /** Rows inserted, updated or deleted, as PGlite counts them; absent when none. */
  affectedRows?: number;
}

/** Named statements kept at most: each holds its plan in PGlite's memory. */
const MAX_NAMED = 200;
const NAMED = /^\s*(select|insert|update|delete|with|values)\b/i;
const PARTIAL_CONFLICT_TARGET = /on\s+conflict\s*\([^)]*\)\s*where/i;
const KEEPS_STATEMENTS = /^\s*(begin|start|commit|end|rollback|savepoint|release|set|show|lock|select|insert|update|delete|with|values)\b/i;
const { serialize } = protocol;

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export class PgliteStatements {
  /** By SQL text, least recently used first (a Map keeps insertion order). */
  readonly #named = new Map<string, Prepared>();
  /** Named statements to close in the next message, once evicted. */
  #toClose: string[] = [];
  #counter = 0;

  constructor(private readonly client: PGlite) {}

  async run(text: string, parameters: readonly unknown[]): Promise<StatementResult> {
    if (!KEEPS_STATEMENTS.test(text)) this.#forgetAll();
    const nameable = NAMED.test(text) && !PARTIAL_CONFLICT_TARGET.test(text);
    if (!nameable) return this.#runUnnamed(text, parameters);
    let prepared = this.#named.get(text);
    if (prepared) {
      this.#named.delete(text);
      this.#named.set(text, prepared);
    } else {
      prepared = await this.#prepare(`peerpay_${++this.#counter}`, text);
      this.#named.set(text, prepared);
      if (this.#named.size > MAX_NAMED) this.#evictOldest();
    }
    const messages = await this.#exec([
      ...this.#closing(),
      serialize.bind({ statement: prepared.name, values: this.#values(prepared.paramTypes, parameters) }),
      serialize.execute({}),
      serialize.sync(),
    ]);
    return this.#result(messages, prepared.fields);
  }

  /** Parses `text` as `name` (the unnamed statement for '') and learns its types. */
  async #prepare(name: string, text: string): Promise<Prepared> {
    const messages = await this.#exec([
      ...this.#closing(),
      serialize.parse({ name, text, types: [] }),
      serialize.describe({ type: 'S', name }),
      serialize.sync(),
    ]);
    let paramTypes: number[] = [];
    let fields: Prepared['fields'] = null;
    for (const message of messages) {
      if (message.name === 'parameterDescription') paramTypes = (message as unknown as { dataTypeIDs: number[] }).dataTypeIDs;
      else if (message.name === 'rowDescription')
        fields = (message as unknown as { fields: { name: string; dataTypeID: number }[] }).fields.map((f) => ({
          name: f.name,
          dataTypeID: f.dataTypeID,
        }));
    }
    return { name, paramTypes, fields };
  }

  /** A statement planned with its values: without parameters one message, else its types first. */
  async #runUnnamed(text: string, parameters: readonly unknown[]): Promise<StatementResult> {
    if (parameters.length === 0) {
      const messages = await this.#exec([
        ...this.#closing(),
        serialize.parse({ text, types: [] }),
        serialize.bind({ values: [] }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]);
      return this.#result(messages, undefined);
    }
    const prepared = await this.#prepare('', text);
    const messages = await this.#exec([
      serialize.bind({ values: this.#values(prepared.paramTypes, parameters) }),
      serialize.execute({}),
      serialize.sync(),
    ]);
    return this.#result(messages, prepared.fields);
  }

  #values(types: readonly number[], parameters: readonly unknown[]): (string | null)[] {
    return parameters.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = this.client.serializers[types[i]!];
      // As PGlite's query() does for a type without a serialiser.
      return serializer ? serializer(value) : (value as { toString(): string }).toString();
    });
  }

  async #exec(parts: readonly Uint8Array[]): Promise<Message[]> {
    // PGlite's own lock on its engine, as its `query()` takes it (the dump of a data directory too).
    const message = concat(parts);
    return (await this.client.runExclusive(() => this.client.execProtocol(message))).messages;
  }

  /** Rows as PGlite's `query()` gives them; `fields` undefined means the portal described them. */
  #result(messages: readonly Message[], known: Prepared['fields'] | undefined): StatementResult {
    let fields = known ?? null;
    const rows: Record<string, unknown>[] = [];
    let affectedRows = 0;
    let parsers: (((value: string, type: number) => unknown) | undefined)[] = fields ? this.#parsersOf(fields) : [];
    for (const message of messages) {
      if (message.name === 'dataRow') {
        const values = (message as unknown as { fields: (string | null)[] }).fields;
        const row: Record<string, unknown> = {};
        for (let i = 0; i < values.length; i++) {
          const value = values[i]!;
          const field = fields![i]!;
          const parse = parsers[i];
          row[field.name] = value === null ? null : parse ? parse(value, field.dataTypeID) : value;
        }
        rows.push(row);
      } else if (message.name === 'rowDescription' && known === undefined) {
        fields = (message as unknown as { fields: { name: string; dataTypeID: number }[] }).fields;
        parsers = this.#parsersOf(fields);
      } else if (message.name === 'commandComplete') affectedRows += affectedBy((message as unknown as { text: string }).text);
    }
    return affectedRows ? { rows, affectedRows } : { rows };
  }

  #parsersOf(fields: readonly { dataTypeID: number }[]): (((value: string, type: number) => unknown) | undefined)[] {
    return fields.map((f) => this.client.parsers[f.dataTypeID] as ((value: string, type: number) => unknown) | undefined);
  }

  #closing(): Uint8Array[] {
    if (this.#toClose.length === 0) return [];
    const parts = this.#toClose.map((name) => serialize.close({ type: 'S', name }));
    this.#toClose = [];
    return parts;
  }

  #evictOldest(): void {
    const [text, oldest] = this.#named.entries().next().value!;
    this.#named.delete(text);
    this.#toClose.push(oldest.name);
  }

  #forgetAll(): void {
    for (const prepared of this.#named.values()) this.#toClose.push(prepared.name);
    this.#named.clear();
  }
}

/** What a CommandComplete tag says was inserted, updated or deleted (as PGlite's `query()` counts). */
function affectedBy(tag: string): number {
  const words = tag.split(' ');
  switch (words[0]) {
    case 'INSERT':
      return parseInt(words[2]!, 10);
    case 'UPDATE':
    case 'DELETE':
    case 'COPY':
    case 'MERGE':
      return parseInt(words[1]!, 10);
    default:
      return 0;
  }
}
