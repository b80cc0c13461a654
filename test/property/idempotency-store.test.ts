// Property test of the coalesced Idempotency-Key store (DESIGN §5, issue 15) over random sequences
// of turns, on whichever database the test helper opens (PGlite, or PostgreSQL when DATABASE_URL
// is set). A turn of claims (same and different keys, same and different bodies, two accounts) goes
// out as one statement, a turn of answers as one (more only for a key answered twice), and every
// call gets exactly what a simple model gives when the same calls are made one after the other;
// after every turn the stored rows equal the model's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql, type KyselyPlugin } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { createIdempotencyStore, type ClaimResult, type IdempotencyStore } from '../../src/platform/idempotency-store.js';
import { openTestDatabase } from '../helpers/test-database.js';
import { createUsers } from './ledger-helpers.js';
import { runUntilCovered } from '../helpers/until-covered.js';

const LEASE_MS = 60_000;
const KEYS = ['a', 'b', 'c'] as const;
const HASHES = ['h1', 'h2'] as const;

let database: Database;
let accounts: number[];
/** The store's own database handle (its own coalescers), counting the statements it sends. */
let store: IdempotencyStore;
let statements = 0;

beforeAll(async () => {
  database = await openTestDatabase();
  accounts = await createUsers(database.db, 2);
  const counter: KyselyPlugin = {
    transformQuery: (args) => {
      statements++;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  store = createIdempotencyStore(database.db.withPlugin(counter));
});
afterAll(async () => {
  await database?.close();
});

// ---------------------------------------------------------------------------------------------
// The model: one row per (account, key), changed by one call after the other.

interface ModelRow {
  hash: string;
  state: 'in_progress' | 'completed';
  status: number | null;
  body: string | null;
  /** The claim's lease is over (the test moved locked_at into the past). */
  expired: boolean;
}

const idOf = (account: number, key: string) => `${account}:${key}`;

class Model {
  rows = new Map<string, ModelRow>();

  claim(id: string, hash: string): ClaimResult {
    const row = this.rows.get(id);
    if (!row) {
      this.rows.set(id, { hash, state: 'in_progress', status: null, body: null, expired: false });
      return { kind: 'claimed' };
    }
    if (row.hash !== hash) return { kind: 'mismatch' };
    if (row.state === 'completed') return { kind: 'replay', status: row.status ?? 200, body: row.body ?? '' };
    if (row.expired) {
      row.expired = false;
      return { kind: 'claimed' };
    }
    return { kind: 'in_progress' };
  }

  complete(id: string, status: number, body: string): void {
    const row = this.rows.get(id);
    if (row) Object.assign(row, { state: 'completed', status, body });
  }

  release(id: string): void {
    if (this.rows.get(id)?.state === 'in_progress') this.rows.delete(id);
  }
}

// ---------------------------------------------------------------------------------------------
// Generated turns.

type Claim = { account: number; key: string; hash: string };
type Answer = { pick: number; action: 'complete' | 'release'; status: number };
type Step =
  | { kind: 'claims'; claims: Claim[] }
  | { kind: 'answers'; answers: Answer[] }
  | { kind: 'expire'; pick: number }
  | { kind: 'lose'; pick: number };

const claimArb: fc.Arbitrary<Claim> = fc.record({
  account: fc.integer({ min: 0, max: 1 }),
  key: fc.constantFrom(...KEYS),
  hash: fc.constantFrom(...HASHES),
});
const answerArb: fc.Arbitrary<Answer> = fc.record({
  pick: fc.nat(),
  action: fc.constantFrom('complete' as const, 'release' as const),
  status: fc.constantFrom(200, 201, 402),
});
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant('claims' as const), claims: fc.array(claimArb, { minLength: 1, maxLength: 10 }) }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('answers' as const), answers: fc.array(answerArb, { minLength: 1, maxLength: 6 }) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('expire' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('lose' as const), pick: fc.nat() }) },
);

// ---------------------------------------------------------------------------------------------
// Running a turn against the store and the model.

/** What the runs exercised, so that the test can insist on a useful mix. */
const stats = { claimed: 0, inProgress: 0, mismatch: 0, replay: 0, takeovers: 0, sameKeyInTurn: 0, keyAnsweredTwice: 0, released: 0 };

interface Holder {
  account: number;
  key: string;
}

async function storedRows(): Promise<Map<string, ModelRow>> {
  const result = await sql<{
    account_id: number;
    key: string;
    request_hash: string;
    state: 'in_progress' | 'completed';
    response_status: number | null;
    response_body: string | null;
    expired: boolean;
  }>`
    select account_id, key, request_hash, state, response_status, response_body,
           locked_at < now() - make_interval(secs => ${LEASE_MS / 1000}) as expired
      from idempotency_keys where account_id in (${sql.join(accounts)})`.execute(database.db);
  return new Map(
    result.rows.map((r) => [
      idOf(r.account_id, r.key),
      { hash: r.request_hash, state: r.state, status: r.response_status, body: r.response_body, expired: r.expired },
    ]),
  );
}

let bodyCounter = 0;

async function runStep(model: Model, holders: Holder[], s: Step, context: string): Promise<void> {
  const before = statements;
  switch (s.kind) {
    case 'claims': {
      const calls = s.claims.map((c) => ({ account: accounts[c.account]!, key: c.key, hash: c.hash }));
      // All in one turn: nothing is awaited until every call is made.
      const results = await Promise.all(
        calls.map((c) => store.claim({ accountId: c.account, key: c.key, requestHash: c.hash, leaseMs: LEASE_MS })),
      );
      const expected = calls.map((c) => {
        const wasExpired = model.rows.get(idOf(c.account, c.key))?.expired === true;
        const answer = model.claim(idOf(c.account, c.key), c.hash);
        if (answer.kind === 'claimed' && wasExpired) stats.takeovers++;
        return answer;
      });
      expect(results, context).toEqual(expected);
      expect(statements - before, `${context}: statements`).toBe(1);
      for (const [i, r] of results.entries()) {
        if (r.kind === 'claimed') holders.push({ account: calls[i]!.account, key: calls[i]!.key });
        stats[r.kind === 'in_progress' ? 'inProgress' : r.kind]++;
      }
      if (new Set(calls.map((c) => idOf(c.account, c.key))).size < calls.length) stats.sameKeyInTurn++;
      return;
    }
    case 'answers': {
      // Each holder answers once; after a takeover two holders of one key may answer in one turn.
      const calls: (Holder & { action: Answer['action']; status: number; body: string })[] = [];
      for (const a of s.answers) {
        if (holders.length === 0) break;
        const [holder] = holders.splice(a.pick % holders.length, 1);
        calls.push({ ...holder!, action: a.action, status: a.status, body: `{"n":${++bodyCounter}}` });
      }
      if (calls.length === 0) return;
      await Promise.all(
        calls.map((c) =>
          c.action === 'complete'
            ? store.complete({ accountId: c.account, key: c.key, status: c.status, body: c.body })
            : store.release({ accountId: c.account, key: c.key }),
        ),
      );
      const perKey = new Map<string, number>();
      for (const c of calls) {
        const id = idOf(c.account, c.key);
        perKey.set(id, (perKey.get(id) ?? 0) + 1);
        if (c.action === 'complete') model.complete(id, c.status, c.body);
        else {
          if (model.rows.get(id)?.state === 'in_progress') stats.released++;
          model.release(id);
        }
      }
      const rounds = Math.max(...perKey.values());
      if (rounds > 1) stats.keyAnsweredTwice++;
      expect(statements - before, `${context}: statements`).toBe(rounds);
      return;
    }
    case 'expire':
    case 'lose': {
      const ids = [...model.rows.keys()].sort();
      if (ids.length === 0) return;
      const id = ids[s.pick % ids.length]!;
      const [account, key] = [Number(id.slice(0, id.indexOf(':'))), id.slice(id.indexOf(':') + 1)];
      if (s.kind === 'expire') {
        await sql`update idempotency_keys set locked_at = now() - interval '5 minutes'
                   where account_id = ${account} and key = ${key}`.execute(database.db);
        model.rows.get(id)!.expired = true;
      } else {
        // As if the record was lost (deleted after the retention): the next claim starts afresh.
        await sql`delete from idempotency_keys where account_id = ${account} and key = ${key}`.execute(database.db);
        model.rows.delete(id);
      }
      return;
    }
  }
}

// ---------------------------------------------------------------------------------------------

describe('the coalesced Idempotency-Key store under random turns', () => {
  it('answers every call as the model does one call after the other, one statement a turn', { timeout: 480_000 }, async () => {
    const minimums = {
      claimed: 50,
      inProgress: 30,
      mismatch: 30,
      replay: 20,
      takeovers: 5,
      sameKeyInTurn: 30,
      keyAnsweredTwice: 2,
      released: 10,
    };
    const covered = () => Object.entries(minimums).every(([name, least]) => stats[name as keyof typeof stats] > least);
    const round = () =>
      fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 20, size: 'max' }), async (steps) => {
          await sql`delete from idempotency_keys where account_id in (${sql.join(accounts)})`.execute(database.db);
          const model = new Model();
          const holders: Holder[] = [];
          for (const [i, s] of steps.entries()) {
            const context = `step ${i} ${JSON.stringify(s)}`;
            await runStep(model, holders, s, context);
            expect(await storedRows(), context).toEqual(model.rows);
          }
        }),
        { numRuns: 60 },
      );
    await runUntilCovered(round, covered);
    // The generator must exercise every path, not only the easy ones.
    for (const [name, least] of Object.entries(minimums)) expect(stats[name as keyof typeof stats], name).toBeGreaterThan(least);
  });
});
