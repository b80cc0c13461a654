// Identifiers and secrets: random, URL-safe, and prefixed so that a reader can tell what an id names.
import { hash, randomBytes, randomFillSync } from 'node:crypto';

export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Base62 encoding of `bytes` as one big-endian number, padded to a fixed length for that byte
 * count. Long division of the bytes by 62 in plain numbers (every request takes an id, and BigInt
 * division showed in the profile); test/unit/ids.test.ts checks it against the BigInt definition.
 */
export function base62(bytes: Uint8Array): string {
  const length = Math.ceil((bytes.length * 8) / Math.log2(62));
  const digits = Array.from(bytes);
  let start = 0;
  while (start < digits.length && digits[start] === 0) start++;
  const out: string[] = [];
  while (start < digits.length) {
    let remainder = 0;
    for (let i = start; i < digits.length; i++) {
      const acc = remainder * 256 + digits[i]!;
      digits[i] = Math.floor(acc / 62);
      remainder = acc % 62;
    }
    out.push(BASE62[remainder]!);
    while (start < digits.length && digits[start] === 0) start++;
  }
  return out.reverse().join('').padStart(length, '0');
}

// Ids draw their 16 bytes from a pool filled by the same CSPRNG 4 KiB at a time, rather than one
// call into it per id (one per request, at least).
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let poolOffset = POOL_BYTES;

function pooledRandomBytes(n: number): Uint8Array {
  if (poolOffset + n > POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  // A copy: the pool's bytes are overwritten by the next refill.
  const bytes = Uint8Array.prototype.slice.call(pool, poolOffset, poolOffset + n);
  poolOffset += n;
  return bytes;
}

/** A random id such as `tr_4fZk...`; 16 bytes of randomness. */
export function newId(prefix: string): string {
  return `${prefix}_${base62(pooledRandomBytes(16))}`;
}

// Request ids only need to be unique, not unguessable: a random prefix per process (64 bits), then
// a counter. Cheaper than 16 fresh random bytes in base62 on every request.
const REQUEST_ID_PREFIX = `req_${base62(randomBytes(8))}`;
let requestCounter = 0;

/** A request id such as `req_6iXx0b8vFJI2-1a`, unique across processes and restarts. */
export function newRequestId(): string {
  requestCounter++;
  return `${REQUEST_ID_PREFIX}-${requestCounter.toString(36)}`;
}

/** A 256-bit random token for links; only its hash is stored. */
export function newToken(): string {
  return base62(randomBytes(32));
}

export function sha256Hex(text: string): string {
  // The one-shot form: no Hash object per call (every request hashes its API key).
  return hash('sha256', text);
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
