// The freeze a quote reads before anything else about its terms (DESIGN §17), coalesced: the
// quotes of one turn of the event loop read their senders' freezes in one statement
// (src/platform/coalesce.ts) instead of one each. Nothing is cached: each read is answered by a
// statement issued after it was asked, so a freeze committed before the quote refuses it.
import type { Db } from '../../db/database.js';
import { coalesce, LOADS_IN_FLIGHT, type Coalesced } from '../../platform/coalesce.js';
import { accountFrozen, stops, type Movement } from './freeze-checks.js';
import { readFreezes, type Freeze } from './freezes-repository.js';

/** An account's freeze as last committed (null: none, or no such account). */
export type FreezeReads = Coalesced<number, Freeze | null>;

// Enough for a busy turn's quotes in one statement, as the account look-ups take.
const MAX_BATCH = 256;

export function coalescedFreezes(db: Db): FreezeReads {
  return coalesce({
    maxBatch: MAX_BATCH,
    maxInFlight: LOADS_IN_FLIGHT,
    async load(accountIds) {
      const freezes = await readFreezes(db, accountIds);
      return accountIds.map((id) => freezes.get(id) ?? null);
    },
  });
}

/** refuseIfFrozen, read through `reads`. */
export async function refuseIfFrozenBy(reads: FreezeReads, accountId: number, movement: Movement): Promise<void> {
  if (stops(await reads(accountId), movement)) throw accountFrozen(movement);
}
