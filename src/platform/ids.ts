// Identifiers and secrets: random, URL-safe, and prefixed so that a reader can tell what an id names.
import { createHash, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Base62 encoding of `bytes` as one big number, padded to a fixed length for that byte count. */
export function base62(bytes: Uint8Array): string {
  let value = BigInt('0x' + (Buffer.from(bytes).toString('hex') || '0'));
  const length = Math.ceil((bytes.length * 8) / Math.log2(62));
  let out = '';
  while (value > 0n) {
    out = BASE62[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out.padStart(length, '0');
}

/** A random id such as `tr_4fZk...`; 16 bytes of randomness. */
export function newId(prefix: string): string {
  return `${prefix}_${base62(randomBytes(16))}`;
}

/** A 256-bit random token for links; only its hash is stored. */
export function newToken(): string {
  return base62(randomBytes(32));
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

const HANDLE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** `PA-` and 8 characters from an alphabet without look-alikes (0/O, 1/I). */
export function newHandle(): string {
  const bytes = randomBytes(8);
  let out = '';
  for (const byte of bytes) out += HANDLE_ALPHABET[byte % HANDLE_ALPHABET.length];
  return `PA-${out}`;
}

export const HANDLE_PATTERN = '^PA-[A-Z0-9]{8}$';
