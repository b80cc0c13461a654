import { expect, it } from 'vitest';
import fc from 'fast-check';
import { createLimiter } from '../../src/platform/limiter.js';

it('never runs more than `concurrency` pieces of work at once, and runs them all', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 5 }),
      fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 30 }),
      async (concurrency, delays) => {
        const limit = createLimiter(concurrency);
        let running = 0;
        let peak = 0;
        const results = await Promise.all(
          delays.map((delay, i) =>
            limit(async () => {
              running++;
              peak = Math.max(peak, running);
              await new Promise((resolve) => setTimeout(resolve, delay));
              running--;
              return i;
            }),
          ),
        );
        expect(peak).toBeLessThanOrEqual(concurrency);
        expect(results).toEqual(delays.map((_, i) => i));
      },
    ),
    { numRuns: 30 },
  );
});

it('frees its slot when work fails', async () => {
  const limit = createLimiter(1);
  await expect(limit(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  expect(await limit(async () => 'next')).toBe('next');
});

it('bounds its queue: beyond `maxQueued` waiting pieces, work is refused at once with the given error, and runs again once the queue drains', async () => {
  const limit = createLimiter(1, { maxQueued: 2, whenFull: () => new Error('full') });
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const running = limit(() => gate.then(() => 'first'));
  const queued = [limit(async () => 'second'), limit(async () => 'third')];
  await expect(limit(async () => 'fourth')).rejects.toThrow('full');
  await expect(limit(async () => 'fifth')).rejects.toThrow('full');
  release();
  expect(await Promise.all([running, ...queued])).toEqual(['first', 'second', 'third']);
  expect(await limit(async () => 'later')).toBe('later');
});

it('refuses nothing without a queue bound', async () => {
  const limit = createLimiter(1);
  expect(await Promise.all(Array.from({ length: 200 }, (_, i) => limit(async () => i)))).toHaveLength(200);
});
