// The rate limiter's store without Redis: fixed windows per key, bounded memory, and each route
// with a limit of its own counted apart from the others.
import { describe, expect, it } from 'vitest';
import { MemoryCounter, rateLimitStore } from '../../src/http/plugins/rate-limit-store.js';

const incr = (store: { incr: (...args: any[]) => void }, key: string, timeWindow = 60_000) =>
  new Promise<{ current: number; ttl: number }>((resolve, reject) =>
    store.incr(
      key,
      (error: Error | null, result?: { current: number; ttl: number }) => (error ? reject(error) : resolve(result!)),
      timeWindow,
    ),
  );

describe('MemoryCounter', () => {
  it('counts in a window from the first request, and starts again once it is over', () => {
    const counter = new MemoryCounter();
    expect(counter.count('k', 1000, 10_000)).toEqual({ current: 1, ttl: 1000 });
    expect(counter.count('k', 1000, 10_400)).toEqual({ current: 2, ttl: 600 });
    expect(counter.count('other', 1000, 10_400)).toEqual({ current: 1, ttl: 1000 });
    expect(counter.count('k', 1000, 11_000)).toEqual({ current: 1, ttl: 1000 });
  });

  it('forgets the oldest window beyond 10,000 keys, so that memory stays bounded', () => {
    const counter = new MemoryCounter();
    for (let i = 0; i <= 10_000; i++) counter.count(`ip:${i}`, 60_000, 0);
    // ip:0 was forgotten (a fresh window), ip:10000 was not.
    expect(counter.count('ip:0', 60_000, 1).current).toBe(1);
    expect(counter.count('ip:10000', 60_000, 1).current).toBe(2);
  });
});

describe('rateLimitStore without Redis', () => {
  const events = { fellBack: () => expect.unreachable('no Redis, no fallback'), recovered: () => undefined };

  it('counts the same key once for every limiter without a route, and apart for a route with its own limit', async () => {
    const Store = rateLimitStore(null, events);
    const global = new Store({});
    const limiter = global.child({ routeInfo: {} } as never);
    const route = global.child({ routeInfo: { method: 'POST', url: '/agent/register' } } as never);
    expect((await incr(global, 'ip:1')).current).toBe(1);
    expect((await incr(limiter, 'ip:1')).current).toBe(2);
    expect((await incr(route, 'ip:1')).current).toBe(1);
  });
});

describe('rateLimitStore with Redis', () => {
  function fakeRedis(answer: () => Promise<[number, number]>) {
    const keys: string[] = [];
    const client = {
      eval: async (_script: string, _keys: number, key: string) => {
        keys.push(key);
        return answer();
      },
    };
    return { keys, redis: { client, prefix: 'pp:', close: async () => undefined } as never };
  }

  it('counts under the prefix in Redis, except the keys kept local (the health probes)', async () => {
    const { keys, redis } = fakeRedis(async () => [7, 1234]);
    const store = new (rateLimitStore(redis, { fellBack: () => expect.unreachable(), recovered: () => undefined }))({});
    expect(await incr(store, 'account:42')).toEqual({ current: 7, ttl: 1234 });
    expect((await incr(store, 'local:probe:ip:10.0.0.1')).current).toBe(1);
    expect((await incr(store, 'local:probe:ip:10.0.0.1')).current).toBe(2);
    expect(keys).toEqual(['pp:ratelimit:account:42']);
  });

  it('counts in memory when Redis fails, asks it again a second later, and says when it is back', async () => {
    let failing = true;
    const { keys, redis } = fakeRedis(async () => {
      if (failing) throw new Error('Command timed out');
      return [1, 60_000];
    });
    const said: string[] = [];
    const store = new (rateLimitStore(redis, { fellBack: () => said.push('fell back'), recovered: () => said.push('recovered') }))({});
    expect((await incr(store, 'ip:1')).current).toBe(1);
    // Within the second after a failure Redis is not asked: memory counts on.
    expect((await incr(store, 'ip:1')).current).toBe(2);
    expect(keys).toHaveLength(1);
    failing = false;
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await incr(store, 'ip:1')).toEqual({ current: 1, ttl: 60_000 });
    expect(said).toEqual(['fell back', 'fell back', 'recovered']);
  });
});
