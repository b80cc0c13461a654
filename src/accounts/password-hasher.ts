// scrypt password hashing (DESIGN §9). Hashing is memory-hard (128 MiB at the default cost), so the
// number of hashes running at once is bounded; callers queue, and the queue is bounded too: beyond
// it the request is answered 503 busy with Retry-After at once (DESIGN §15), so that a flood of
// requests that need a hash cannot make every real one wait behind it. The parameters are stored in each
// hash, so the cost can be raised later without invalidating existing passwords.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { AppError } from '../platform/errors.js';
import { createLimiter } from '../platform/limiter.js';

const KEY_LENGTH = 32;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;

function scryptAsync(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
  /** Does the same work as a verification, for an account that does not exist. */
  burn(password: string): Promise<void>;
}

export function createPasswordHasher(options: { costLog2: number; concurrency: number; maxQueued?: number }): PasswordHasher {
  const bounded = createLimiter(options.concurrency, {
    ...(options.maxQueued === undefined ? {} : { maxQueued: options.maxQueued }),
    whenFull: () =>
      new AppError(
        'busy',
        'peerpay is checking too many passwords right now; retry after the time in Retry-After.',
        {},
        { 'Retry-After': '1' },
      ),
  });
  const derive = (password: string, salt: Buffer, costLog2: number) =>
    bounded(() =>
      scryptAsync(password, salt, {
        N: 2 ** costLog2,
        r: BLOCK_SIZE,
        p: PARALLELISM,
        maxmem: 256 * 2 ** costLog2 * BLOCK_SIZE + 1024 * 1024,
      }),
    );
  const dummySalt = randomBytes(16);

  return {
    async hash(password) {
      const salt = randomBytes(16);
      const key = await derive(password, salt, options.costLog2);
      return `scrypt$${options.costLog2}$${salt.toString('base64url')}$${key.toString('base64url')}`;
    },
    async verify(password, stored) {
      const [scheme, cost, salt, expected] = stored.split('$');
      if (scheme !== 'scrypt' || !cost || !salt || !expected) return false;
      const key = await derive(password, Buffer.from(salt, 'base64url'), Number(cost));
      const expectedKey = Buffer.from(expected, 'base64url');
      return expectedKey.length === key.length && timingSafeEqual(key, expectedKey);
    },
    async burn(password) {
      await derive(password, dummySalt, options.costLog2);
    },
  };
}
