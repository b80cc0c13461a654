// The standing a check outside a movement's transaction reads (a quote, the early refusal of a
// transfer or withdrawal), coalesced: the checks made in one turn of the event loop share one
// statement (src/platform/coalesce.ts) instead of one each. Nothing is cached: every check is
// answered by a statement issued after it was made, so volume committed before it is counted.
import type { Db } from '../../db/database.js';
import type { Asset } from '../../money/assets.js';
import { coalesce, LOADS_IN_FLIGHT, type Coalesced } from '../../platform/coalesce.js';
import { readStanding, type AccountStanding } from './limits-repository.js';

/** One account's standing for `currency`, with the buckets the windows of `at` count. */
export interface StandingAsked {
  accountId: number;
  currency: Asset;
  at: Date;
}

// Enough for a busy turn's checks in one statement, as the account look-ups take.
const MAX_BATCH = 256;

export function coalescedStandings(db: Db): Coalesced<StandingAsked, AccountStanding | undefined> {
  return coalesce({
    maxBatch: MAX_BATCH,
    maxInFlight: LOADS_IN_FLIGHT,
    async load(asked) {
      // From the earliest check's windows: a later check's windows count no bucket before them.
      const from = new Date(Math.min(...asked.map((a) => a.at.getTime())));
      const standing = await readStanding(db, {
        accountIds: [...new Set(asked.map((a) => a.accountId))],
        currencies: [...new Set(asked.map((a) => a.currency))],
        from,
      });
      return asked.map((a) => standing.get(a.accountId));
    },
  });
}
