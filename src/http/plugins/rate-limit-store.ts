// Where @fastify/rate-limit counts: in Redis when REDIS_URL is set, so that a client's budget is the
// same whichever process of a fleet answers (DESIGN §10), and in this process's memory otherwise.
// When Redis does not answer (away, or slower than its command timeout) the request is counted in
// memory instead, a warning is logged once per outage and a metric counts each such request: the
// service keeps answering, with per-process limits meanwhile, and never fails a request for Redis.
//
// Fixed windows of `timeWindow` ms from a key's first request, as the plugin's own stores keep them.
// The Redis side is one Lua script (INCR, and PEXPIRE on the first), so that processes counting the
// same key at once each get their own number and the window is set exactly once.
import type { FastifyRateLimitOptions, FastifyRateLimitStore } from '@fastify/rate-limit';
import type { SharedRedis } from '../../platform/redis.js';

const COUNT_SCRIPT = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {current, ttl}`;

/** After Redis failed, requests are counted in memory for this long before Redis is asked again, so that a
 * Redis that hangs costs one command timeout per interval, not one per request. */
export const REDIS_RETRY_AFTER_FAILURE_MS = 1000;

/** Keys that start with it are counted in this process's memory even with Redis (the health probes). */
export const LOCAL_KEY_PREFIX = 'local:';

/** The most keys the memory counter keeps; beyond it the oldest window is forgotten. */
const MEMORY_KEYS_MAX = 10_000;

type Count = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Count) => void;

export interface SharedLimitsEvents {
  /** Redis did not answer and a request was counted in memory (called for each). */
  fellBack(error: unknown): void;
  /** Redis answered again after having failed. */
  recovered(): void;
}

/** A fixed-window counter in this process's memory, bounded to MEMORY_KEYS_MAX keys. */
export class MemoryCounter {
  private readonly windows = new Map<string, { count: number; endsAtMs: number }>();

  count(key: string, timeWindowMs: number, nowMs = Date.now()): Count {
    let window = this.windows.get(key);
    if (!window || window.endsAtMs <= nowMs) {
      this.windows.delete(key);
      if (this.windows.size >= MEMORY_KEYS_MAX) this.windows.delete(this.windows.keys().next().value!);
      window = { count: 0, endsAtMs: nowMs + timeWindowMs };
      this.windows.set(key, window);
    }
    window.count++;
    return { current: window.count, ttl: window.endsAtMs - nowMs };
  }
}

/** The plugin's `store`: counts in memory, or in Redis under the prefix with memory as the fallback. */
export function rateLimitStore(
  redis: SharedRedis | null,
  events: SharedLimitsEvents,
): new (options: FastifyRateLimitOptions) => FastifyRateLimitStore {
  const memory = new MemoryCounter();
  let failing = false;
  let skipRedisUntilMs = 0;

  async function countShared(client: SharedRedis, key: string, timeWindowMs: number): Promise<Count> {
    const reply = (await client.client.eval(COUNT_SCRIPT, 1, client.prefix + key, String(timeWindowMs))) as [number, number];
    return { current: Number(reply[0]), ttl: Number(reply[1]) };
  }

  function count(namespace: string, key: string, callback: Callback, timeWindowMs: number): void {
    const fullKey = `ratelimit:${namespace}${key}`;
    if (!redis || key.startsWith(LOCAL_KEY_PREFIX)) return callback(null, memory.count(fullKey, timeWindowMs));
    if (Date.now() < skipRedisUntilMs) {
      events.fellBack(new Error('Redis failed a moment ago'));
      return callback(null, memory.count(fullKey, timeWindowMs));
    }
    countShared(redis, fullKey, timeWindowMs).then(
      (result) => {
        if (failing) {
          failing = false;
          events.recovered();
        }
        callback(null, result);
      },
      (error: unknown) => {
        failing = true;
        skipRedisUntilMs = Date.now() + REDIS_RETRY_AFTER_FAILURE_MS;
        events.fellBack(error);
        callback(null, memory.count(fullKey, timeWindowMs));
      },
    );
  }

  const storeFor = (namespace: string): FastifyRateLimitStore => ({
    incr(key, callback, timeWindow?: number) {
      count(namespace, key, callback, timeWindow ?? 60_000);
    },
    // A route with its own limit (config.rateLimit) counts apart from the others.
    child(routeOptions) {
      const route = routeOptions as { method?: unknown; url?: unknown; routeInfo?: { method?: unknown; url?: unknown } };
      const info = route.routeInfo ?? route;
      const own = typeof info.url === 'string' ? `${String(info.method)}:${info.url}:` : '';
      return storeFor(namespace + own);
    },
  });

  return class {
    constructor() {
      return storeFor('');
    }
  } as unknown as new (options: FastifyRateLimitOptions) => FastifyRateLimitStore;
}
