// The claims of Idempotency-Keys made in one turn of the event loop, in one statement: a multi-row
// insert of the keys not yet stored, the lease takeover of the claims whose request died, and a
// read of the rows that were already there. Each claim gets the answer it would have got alone,
// and claims of one (account, key) get the answers they would have got one after the other.
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { assert } from './errors.js';

export type ClaimResult =
  { kind: 'claimed' } | { kind: 'replay'; status: number; body: string } | { kind: 'in_progress' } | { kind: 'mismatch' };

export interface ClaimInput {
  accountId: number;
  key: string;
  requestHash: string;
  leaseMs: number;
}

/** What the statement says of one (account, key): its row as it was, and what this statement did to it. */
interface GroupRow {
  g: number;
  inserted: boolean;
  /** The position (in the batch) of the claim that took over an expired claim, if one did. */
  taker: number | null;
  request_hash: string | null;
  state: 'in_progress' | 'completed' | null;
  response_status: number | null;
  response_body: string | null;
}

/** Claims that share (account, key), in call order (positions in the batch). */
type Group = number[];

function groupsOf(claims: readonly ClaimInput[]): Group[] {
  const byId = new Map<string, Group>();
  const groups: Group[] = [];
  claims.forEach((c, i) => {
    const id = `${c.accountId}:${c.key}`; // the account id has no colon, so this names one (account, key)
    const group = byId.get(id);
    if (group) group.push(i);
    else {
      const fresh = [i];
      byId.set(id, fresh);
      groups.push(fresh);
    }
  });
  return groups;
}

/**
 * One statement for every group. Only a group's first claim is inserted (a group's later claims
 * would conflict with it anyway). The takeover goes to the group's first claim whose request hash
 * matches the stored one and whose lease is over, as it would one claim after the other: the
 * claims before it differ (mismatch) or still see a live lease. Rows the insert or the update
 * write are invisible to the rest of the statement, so the read gives each row as it was.
 */
async function claimGroups(db: Db, claims: readonly ClaimInput[], groups: readonly Group[]): Promise<GroupRow[]> {
  const values = groups.flatMap((group, g) =>
    group.map((i) => {
      const c = claims[i]!;
      return sql`(${g}::integer, ${i}::integer, ${c.accountId}::integer, ${c.key}::text, ${c.requestHash}::text, ${c.leaseMs / 1000}::float8)`;
    }),
  );
  const result = await sql<GroupRow>`
    with claim (g, ord, account_id, key, request_hash, lease_secs) as (values ${sql.join(values)}),
    first as (select distinct on (g) * from claim order by g, ord),
    inserted as (
      insert into idempotency_keys (account_id, key, request_hash, state)
      select account_id, key, request_hash, 'in_progress' from first
      on conflict (account_id, key) do nothing
      returning account_id, key),
    taker as (
      select distinct on (c.g) c.g, c.ord, c.account_id, c.key, c.request_hash, c.lease_secs
        from claim c
        join idempotency_keys k on k.account_id = c.account_id and k.key = c.key and k.request_hash = c.request_hash
       where k.state = 'in_progress' and k.locked_at < now() - make_interval(secs => c.lease_secs)
       order by c.g, c.ord),
    taken as (
      update idempotency_keys k set locked_at = now()
        from taker t
       where k.account_id = t.account_id and k.key = t.key and k.request_hash = t.request_hash and k.state = 'in_progress'
         and k.locked_at < now() - make_interval(secs => t.lease_secs)
      returning t.g, t.ord)
    select f.g,
           exists (select 1 from inserted i where i.account_id = f.account_id and i.key = f.key) as inserted,
           (select t.ord from taken t where t.g = f.g) as taker,
           k.request_hash, k.state, k.response_status, k.response_body
      from first f
      left join idempotency_keys k on k.account_id = f.account_id and k.key = f.key`.execute(db);
  return result.rows;
}

/**
 * The answers of a group's claims, one after the other, from what the statement found and did;
 * null when the group must be claimed again: its row was neither inserted nor there to read (a
 * concurrent request stored it after the statement's snapshot, or released it in between).
 */
function answersOf(claims: readonly ClaimInput[], group: Group, row: GroupRow): ClaimResult[] | null {
  const first = claims[group[0]!]!;
  if (row.inserted) {
    return group.map((i, n) =>
      n === 0 ? { kind: 'claimed' } : claims[i]!.requestHash === first.requestHash ? { kind: 'in_progress' } : { kind: 'mismatch' },
    );
  }
  if (row.request_hash === null) return null;
  return group.map((i): ClaimResult => {
    if (claims[i]!.requestHash !== row.request_hash) return { kind: 'mismatch' };
    if (row.state === 'completed') return { kind: 'replay', status: row.response_status ?? 200, body: row.response_body ?? '' };
    return i === row.taker ? { kind: 'claimed' } : { kind: 'in_progress' };
  });
}

/**
 * Claims every key for a new request, or says what became of an earlier one, in one statement
 * (so that a failure leaves nothing behind). Null for the claims of a key to claim again: another
 * request stored or released it while the statement ran. A claim whose request died without
 * answering (the process crashed) can be taken over once its lease is over; services keep their
 * own natural keys so that such a retry finds, rather than repeats, what was done.
 */
export async function claimKeys(db: Db, claims: readonly ClaimInput[]): Promise<(ClaimResult | null)[]> {
  const groups = groupsOf(claims);
  const rows = await claimGroups(db, claims, groups);
  assert(rows.length === groups.length, 'the claim statement answers every (account, key)');
  const results: (ClaimResult | null | undefined)[] = Array.from({ length: claims.length });
  for (const row of rows) {
    const group = groups[row.g]!;
    const answers = answersOf(claims, group, row);
    group.forEach((i, n) => (results[i] = answers ? answers[n]! : null));
  }
  return results.map((r) => {
    assert(r !== undefined, 'every claim has an answer');
    return r;
  });
}
