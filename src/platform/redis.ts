// The Redis connection that a fleet's processes share their rate limits through (DESIGN §10). Redis
// is an aid, never a dependency: the start waits for it a second at most, a command that finds it away fails
// at once (no offline queue) or after a short timeout, and the connection is retried in the
// background for as long as the process runs. Callers fall back to memory meanwhile.
import { Redis } from 'ioredis';

/** How long connecting, and one command, may take before Redis counts as away. */
export const REDIS_CONNECT_TIMEOUT_MS = 1000;
// Generous against a busy event loop (a timer can fire before the reply is read), short for a client.
export const REDIS_COMMAND_TIMEOUT_MS = 500;
/** Reconnection attempts back off to at most this interval. */
const REDIS_RETRY_MAX_MS = 2000;

export interface SharedRedis {
  readonly client: Redis;
  /** Every key starts with it (REDIS_KEY_PREFIX). */
  readonly prefix: string;
  close(): Promise<void>;
}

/** Connects, waiting at most REDIS_CONNECT_TIMEOUT_MS: the first requests (health checks included) then count in Redis. */
export async function connectRedis(options: { url: string; prefix: string }): Promise<SharedRedis> {
  const client = new Redis(options.url, {
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    // A command sent while Redis is away fails at once instead of waiting in an unbounded queue.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 200, REDIS_RETRY_MAX_MS),
    // The client's own "ready" check may hang on a busy server; the first command tells.
    enableReadyCheck: false,
  });
  // Without a listener, ioredis reports each failed connection attempt as an unhandled error; the
  // rate limiter reports Redis being away (a log line and a metric) when it matters, per request.
  client.on('error', () => undefined);
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, REDIS_CONNECT_TIMEOUT_MS);
    client.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return {
    client,
    prefix: options.prefix,
    async close() {
      client.disconnect(false);
    },
  };
}
