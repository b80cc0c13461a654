// A short statement that guards a client's retry (an Idempotency-Key's answer, its release) is
// tried again over lost connections for a while: a cut or a round of terminated backends can hand
// out several dead connections in a row before a live one.
import { expect, it } from 'vitest';
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

it('outlasts several dead connections in a row, as a cut of the whole pool hands out', async () => {
  const statement = failingFirst(5);
  await expect(retryIfUnavailable(statement.run)).resolves.toBe('stored');
  expect(statement.tries).toBe(6);
});

it('gives up with the last failure once its time is spent', async () => {
  const statement = failingFirst(Number.POSITIVE_INFINITY);
  const started = Date.now();
  await expect(retryIfUnavailable(statement.run, 400)).rejects.toThrow('ECONNRESET');
  // 50 + 100 + 200 ms of waiting fit in 400; the next wait (400 ms) would not.
  expect(statement.tries).toBe(4);
  expect(Date.now() - started).toBeLessThan(2_000);
});

it('throws any other failure at once, without trying again', async () => {
  const statement = failingFirst(1, () => Object.assign(new Error('duplicate key'), { code: '23505' }));
  await expect(retryIfUnavailable(statement.run)).rejects.toThrow('duplicate key');
  expect(statement.tries).toBe(1);
});
