// Coalescing: look-ups made by concurrent requests in the same turn of the event loop go to the
// database as one statement instead of one each. Under load a turn reads many requests off their
// sockets at once, and each of them would otherwise pay its own round trip (a socket write, a
// wake-up of the database, a parse of the answer); alone, a request waits only until the end of
// the turn it is in (setImmediate), not for a timer. With `maxInFlight`, calls made while that
// many statements are under way wait for one of them to end and then go together in the next: the
// busier the database, the more each statement answers (on PGlite, one connection, a look-up would
// otherwise queue behind a batch of transfers with only the few calls of its own turn). Nothing is
// cached: every call is answered by a statement issued after it was made, so a change committed
// before the call (a revoked key, a new balance) is always seen.
import { assert } from './errors.js';

export interface CoalescerOptions<K, V> {
  /** At most this many keys in one statement; more in one turn go out as several statements. */
  readonly maxBatch: number;
  /** Answers every key, in the order given (one statement); a rejection fails those keys' calls. */
  readonly load: (keys: readonly K[]) => Promise<readonly V[]>;
  /**
   * For loads that write: when a load of several keys fails with an error this accepts, each key
   * is loaded again alone, one after the other in call order, so that one bad key fails only its
   * own call and not its neighbours'. Only for loads that leave nothing behind when they fail (one
   * statement) or that may safely run again; without it, a failed load fails all its calls.
   */
  readonly retryAlone?: (error: unknown) => boolean;
  /** At most this many loads under way at once (default: no bound); calls made meanwhile wait for the next. */
  readonly maxInFlight?: number;
}

/** The bound on loads under way that the database look-ups and writes of requests use. */
export const LOADS_IN_FLIGHT = 2;

/** A function that answers one key, sharing a statement with the calls made in the same turn. */
export type Coalesced<K, V> = (key: K) => Promise<V>;

interface Waiting<K, V> {
  key: K;
  resolve: (value: V) => void;
  reject: (error: unknown) => void;
}

export function coalesce<K, V>(options: CoalescerOptions<K, V>): Coalesced<K, V> {
  assert(options.maxBatch >= 1, 'a coalesced statement answers at least one key');
  const maxInFlight = options.maxInFlight ?? Number.POSITIVE_INFINITY;
  assert(maxInFlight >= 1, 'at least one load may be under way');
  const waiting: Waiting<K, V>[] = [];
  let inFlight = 0;
  let scheduled = false;

  function flush(): void {
    scheduled = false;
    while (waiting.length > 0 && inFlight < maxInFlight) {
      const chunk = waiting.splice(0, options.maxBatch);
      inFlight++;
      void answer(chunk).finally(() => {
        inFlight--;
        // Those that arrived while the loads ran have waited long enough: they go at once.
        if (waiting.length > 0) flush();
      });
    }
  }

  async function answer(chunk: readonly Waiting<K, V>[]): Promise<void> {
    try {
      const values = await options.load(chunk.map((w) => w.key));
      assert(values.length === chunk.length, 'a coalesced statement answers every key');
      chunk.forEach((w, i) => w.resolve(values[i]!));
    } catch (error) {
      if (chunk.length > 1 && options.retryAlone?.(error)) {
        for (const w of chunk) await answer([w]);
        return;
      }
      for (const w of chunk) w.reject(error);
    }
  }

  return (key) =>
    new Promise<V>((resolve, reject) => {
      waiting.push({ key, resolve, reject });
      if (!scheduled && inFlight < maxInFlight) {
        scheduled = true;
        setImmediate(flush);
      }
    });
}
