import { describe, expect, it } from 'vitest';
import { coalesce } from '../../src/platform/coalesce.js';

describe('coalesce', () => {
  it('answers the calls of one turn with one load, each its own value in order', async () => {
    const loads: number[][] = [];
    const double = coalesce<number, number>({
      maxBatch: 100,
      load: async (keys) => {
        loads.push([...keys]);
        return keys.map((k) => k * 2);
      },
    });
    const answers = await Promise.all([double(1), double(2), double(3)]);
    expect(answers).toEqual([2, 4, 6]);
    expect(loads).toEqual([[1, 2, 3]]);
  });

  it('splits a turn into loads of at most maxBatch keys', async () => {
    const loads: number[][] = [];
    const same = coalesce<number, number>({
      maxBatch: 2,
      load: async (keys) => {
        loads.push([...keys]);
        return keys;
      },
    });
    expect(await Promise.all([1, 2, 3, 4, 5].map(same))).toEqual([1, 2, 3, 4, 5]);
    expect(loads).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('issues a new load for calls made after a load started, so nothing is answered from before the call', async () => {
    let version = 0;
    const loads: number[][] = [];
    const read = coalesce<string, number>({
      maxBatch: 10,
      load: async (keys) => {
        loads.push(keys.map(() => version));
        return keys.map(() => version);
      },
    });
    expect(await read('a')).toBe(0);
    version = 1;
    expect(await read('a')).toBe(1);
    expect(loads).toHaveLength(2);
  });

  it('fails only the calls of the load that failed', async () => {
    const flaky = coalesce<number, number>({
      maxBatch: 1,
      load: async ([key]) => {
        if (key === 2) throw new Error('lost connection');
        return [key!];
      },
    });
    const results = await Promise.allSettled([flaky(1), flaky(2), flaky(3)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('fails the calls when a load answers a different number of keys', async () => {
    const broken = coalesce<number, number>({ maxBatch: 10, load: async () => [1] });
    const results = await Promise.allSettled([broken(1), broken(2)]);
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
  });
});
