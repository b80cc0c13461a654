// Coalescing: look-ups made by concurrent requests in the same turn of the event loop go to the
// database as one statement instead of one each. Under load a turn reads many requests off their
// sockets at once, and each of them would otherwise pay its own round trip (a socket write, a
// wake-up of the database, a parse of the answer); alone, a request waits only until the end of
// the turn it is in (setImmediate), not for a timer. Nothing is cached: every call is answered by
// a statement issued after it was made, so a change committed before the call (a revoked key, a
// new balance) is always seen.
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
}

/** A function that answers one key, sharing a statement with the calls made in the same turn. */
export type Coalesced<K, V> = (key: K) => Promise<V>;

interface Waiting<K, V> {
  key: K;
  resolve: (value: V) => void;
  reject: (error: unknown) => void;
}

export function coalesce<K, V>(options: CoalescerOptions<K, V>): Coalesced<K, V> {
  assert(options.maxBatch >= 1, 'a coalesced statement answers at least one key');
  let waiting: Waiting<K, V>[] = [];

  function flush(): void {
    const all = waiting;
    waiting = [];
    for (let start = 0; start < all.length; start += options.maxBatch) {
      const chunk = all.slice(start, start + options.maxBatch);
      void answer(chunk);
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
      if (waiting.length === 0) setImmediate(flush);
      waiting.push({ key, resolve, reject });
    });
}
