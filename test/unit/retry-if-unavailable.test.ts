// A short statement that guards a client's retry (an Idempotency-Key's answer, its release) is
// tried again over lost connections for a while: a cut or a round of terminated backends can hand
// out several dead connections in a row before a live one.
// The waits are counted on vitest's fake clock (setTimeout and Date.now together): on real timers a
// loaded machine fires each wait late, and the tries that fit the time would depend on the load.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { retryIfUnavailable } from '../../src/db/database-unavailable.js';

function connectionLost(): Error {
  return Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
}

/** A statement that meets `dead` lost connections before it runs; counts its tries. */
function failingFirst(dead: number, failure: () => Error = connectionLost) {
  const statement = {
    tries: 0,
    run: async () => {
      statement.tries++;
      if (statement.tries <= dead) throw failure();
      return 'stored';
    },
  };
  return statement;
}

describe('on the clock', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('outlasts several dead connections in a row, as a cut of the whole pool hands out', async () => {
    const statement = failingFirst(5);
    const started = Date.now();
    const result = retryIfUnavailable(statement.run);
    await vi.runAllTimersAsync();
    await expect(result).resolves.toBe('stored');
    expect(statement.tries).toBe(6);
    // 50 + 100 + 200 + 400 + 400 ms of waiting, within the two seconds.
    expect(Date.now() - started).toBe(1_150);
  });

  it('gives up with the last failure once its time is spent', async () => {
    const statement = failingFirst(Number.POSITIVE_INFINITY);
    const started = Date.now();
    const result = retryIfUnavailable(statement.run, 400);
    const failed = expect(result).rejects.toThrow('ECONNRESET');
    await vi.runAllTimersAsync();
    await failed;
    // 50 + 100 + 200 ms of waiting fit in 400; the next wait (400 ms) would not, so it is not waited.
    expect(statement.tries).toBe(4);
    expect(Date.now() - started).toBe(350);
  });
});

it('tries again on real timers', async () => {
  const statement = failingFirst(1);
  await expect(retryIfUnavailable(statement.run)).resolves.toBe('stored');
  expect(statement.tries).toBe(2);
});

it('throws any other failure at once, without trying again', async () => {
  const statement = failingFirst(1, () => Object.assign(new Error('duplicate key'), { code: '23505' }));
  await expect(retryIfUnavailable(statement.run)).rejects.toThrow('duplicate key');
  expect(statement.tries).toBe(1);
});
