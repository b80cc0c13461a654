// API keys: `pa_live_` + 32 random bytes in base62 + a 6-character checksum (DESIGN §9). The
// checksum lets a mistyped or truncated key be refused without a database read. Only the SHA-256
// of a key is stored; the key itself is shown once.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { BASE62, base62, sha256Hex } from '../platform/ids.js';

export const API_KEY_PREFIX = 'pa_live_';
const BODY_LENGTH = 43; // base62 of 32 bytes
const CHECKSUM_LENGTH = 6;
const API_KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`);

/** The last 6 base62 characters of the first 5 bytes of the SHA-256 of prefix and body. */
function checksumOf(body: string): string {
  // Every request checks one. The 5 bytes are one 40-bit number, exact in a double: its last 6
  // base62 digits are taken by plain division, with no buffer or byte-wise long division.
  let value = Number.parseInt(sha256Hex(`${API_KEY_PREFIX}${body}`).slice(0, 10), 16);
  let checksum = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    checksum = BASE62[value % 62]! + checksum;
    value = Math.floor(value / 62);
  }
  return checksum;
}

export interface IssuedApiKey {
  key: string;
  hash: string;
  last4: string;
}

export function issueApiKey(): IssuedApiKey {
  const body = base62(randomBytes(32));
  const key = `${API_KEY_PREFIX}${body}${checksumOf(body)}`;
  return { key, hash: hashApiKey(key), last4: key.slice(-4) };
}

/** True when `key` has the shape and checksum of a key peerpay issued. */
export function isWellFormedApiKey(key: string): boolean {
  if (!API_KEY_PATTERN.test(key)) return false;
  const body = key.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + BODY_LENGTH);
  const checksum = key.slice(API_KEY_PREFIX.length + BODY_LENGTH);
  return timingSafeEqual(Buffer.from(checksum), Buffer.from(checksumOf(body)));
}

export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
