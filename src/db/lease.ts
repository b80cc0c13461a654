// Claiming work for a job: one statement picks up to `limit` due rows that no other worker holds
// (FOR UPDATE SKIP LOCKED), stamps a lease on them and commits at once, so that no lock is held
// while the job then talks to the processor or the chain. A worker that dies loses its lease when
// it runs out, and the rows become due again.
import { sql, type RawBuilder } from 'kysely';
import type { Db } from './database.js';

export type LeasedTable = 'fiat_transfers' | 'payouts';

export interface LeaseRequest {
  table: LeasedTable;
  /** Which rows are due, besides not being leased; a SQL condition over the table's columns. */
  due: RawBuilder<unknown>;
  /** Oldest first by this column. */
  orderBy: 'created_at' | 'check_at';
  now: Date;
  leaseMs: number;
  limit: number;
}

/** Leases due rows and returns their ids. */
export async function leaseDueRows(db: Db, request: LeaseRequest): Promise<string[]> {
  const table = sql.table(request.table);
  const orderBy = sql.ref(request.orderBy);
  const leasedUntil = new Date(request.now.getTime() + request.leaseMs);
  const result = await sql<{ id: string }>`
    update ${table} set locked_until = ${leasedUntil}
     where id in (
       select id from ${table}
        where ${request.due} and (locked_until is null or locked_until < ${request.now})
        order by ${orderBy}
        limit ${request.limit}
        for update skip locked)
    returning id`.execute(db);
  return result.rows.map((row) => row.id);
}
