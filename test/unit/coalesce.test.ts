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
  it('with retryAlone, loads each key of a failed load alone, in call order, so only the bad key fails', async () => {
    const loads: number[][] = [];
    const write = coalesce<number, number>({
      maxBatch: 10,
      load: async (keys) => {
        loads.push([...keys]);
        if (keys.includes(2)) throw new Error('bad input');
        return keys;
      },
      retryAlone: (error) => error instanceof Error && error.message === 'bad input',
    });
    const results = await Promise.allSettled([write(1), write(2), write(3)]);
    expect(results).toEqual([
      { status: 'fulfilled', value: 1 },
      { status: 'rejected', reason: new Error('bad input') },
      { status: 'fulfilled', value: 3 },
    ]);
    expect(loads).toEqual([[1, 2, 3], [1], [2], [3]]);
  });

  it('with retryAlone, an error it does not accept still fails every call of the load, with no retry', async () => {
    let loads = 0;
    const write = coalesce<number, number>({
      maxBatch: 10,
      load: async () => {
        loads++;
        throw new Error('lost connection');
      },
      retryAlone: (error) => error instanceof Error && error.message === 'bad input',
    });
    const results = await Promise.allSettled([write(1), write(2)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(loads).toBe(1);
  });
});

describe('coalesce with maxInFlight', () => {
  it('sends the calls made while the loads are under way together in the next load, issued after them', async () => {
    const loads: number[][] = [];
    let release: (() => void) | null = null;
    const slow = coalesce<number, number>({
      maxBatch: 100,
      maxInFlight: 1,
      load: async (keys) => {
        loads.push([...keys]);
        if (loads.length === 1) await new Promise<void>((resolve) => (release = resolve));
        return keys;
      },
    });
    const first = slow(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(loads).toEqual([[1]]);
    // Three turns' calls while the first load is under way.
    const later: Promise<number>[] = [];
    for (let turn = 0; turn < 3; turn++) {
      later.push(slow(10 + turn), slow(20 + turn));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(loads).toHaveLength(1);
    release!();
    expect(await Promise.all([first, ...later])).toEqual([1, 10, 20, 11, 21, 12, 22]);
    expect(loads).toEqual([[1], [10, 20, 11, 21, 12, 22]]);
  });

  it('runs up to maxInFlight loads at once', async () => {
    let running = 0;
    let most = 0;
    const bounded = coalesce<number, number>({
      maxBatch: 1,
      maxInFlight: 2,
      load: async (keys) => {
        most = Math.max(most, ++running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        return keys;
      },
    });
    expect(await Promise.all([1, 2, 3, 4, 5].map(bounded))).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
  });
});
