// Time for everything that depends on it (link expiry, ACH settlement, lock-outs). In sandbox mode
// the clock can be moved forward; its offset is stored in the database so that every process and
// every restart sees the same sandbox time.
import type { Db } from '../db/database.js';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export class SandboxClock implements Clock {
  private offsetMs = 0n;

  constructor(private readonly db: Db) {}

  /** Reads the stored offset; called at start and before work that depends on sandbox time. */
  async refresh(): Promise<void> {
    const row = await this.db.selectFrom('sandbox_clock').select('offset_ms').where('id', '=', 1).executeTakeFirstOrThrow();
    this.offsetMs = row.offset_ms;
  }

  now(): Date {
    return new Date(Date.now() + Number(this.offsetMs));
  }

  async advance(ms: bigint): Promise<Date> {
    const row = await this.db
      .updateTable('sandbox_clock')
      .set((eb) => ({ offset_ms: eb('offset_ms', '+', ms) }))
      .where('id', '=', 1)
      .returning('offset_ms')
      .executeTakeFirstOrThrow();
    this.offsetMs = row.offset_ms;
    return this.now();
  }
}
