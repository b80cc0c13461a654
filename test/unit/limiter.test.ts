import { expect, it } from 'vitest';
import fc from 'fast-check';
import { createLimiter } from '../../src/platform/limiter.js';

it('never runs more than `concurrency` pieces of work at once, and runs them all', async () => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 5 }), fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 30 }), async (concurrency, delays) => {
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
    }),
    { numRuns: 30 },
  );
});

it('frees its slot when work fails', async () => {
  const limit = createLimiter(1);
  await expect(limit(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  expect(await limit(async () => 'next')).toBe('next');
});
