// Stripe ids are a type prefix and random base62; tests only rely on the prefix, so randomness is fine.
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function randomToken(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += ALPHABET[byte % ALPHABET.length];
  return out;
}

/** e.g. newId('cus') → 'cus_Q3xk…'; the length follows what Stripe's test-mode ids look like. */
export function newId(prefix: string, length = 24): string {
  return `${prefix}_${randomToken(length)}`;
}
