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
