import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { base62, newId, newRequestId } from '../../src/platform/ids.js';

const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** The definition: the bytes as one big-endian number in base 62, padded to the byte count's length. */
function base62Reference(bytes: Uint8Array): string {
  let value = BigInt('0x' + (Buffer.from(bytes).toString('hex') || '0'));
  let out = '';
  while (value > 0n) {
    out = DIGITS[Number(value % 62n)]! + out;
    value /= 62n;
  }
  return out.padStart(Math.ceil((bytes.length * 8) / Math.log2(62)), '0');
}

describe('base62', () => {
  it('is the big-endian number in base 62, padded, for any bytes (so issued keys and checksums keep their form)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 40 }), (bytes) => {
        expect(base62(bytes)).toBe(base62Reference(bytes));
      }),
      { numRuns: 2000 },
    );
  });

  it('handles the edges: zeros, leading zeros, all ones', () => {
    for (const bytes of [new Uint8Array(16), Uint8Array.from([0, 0, 1]), new Uint8Array(32).fill(255), Uint8Array.from([62])]) {
      expect(base62(bytes)).toBe(base62Reference(bytes));
    }
    expect(base62(Uint8Array.from([62]))).toBe('10');
  });
});

describe('newId', () => {
  it('gives prefixed 22-character ids, all different across pool refills', () => {
    const ids = Array.from({ length: 1000 }, () => newId('t'));
    for (const id of ids) expect(id).toMatch(/^t_[0-9A-Za-z]{22}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('newRequestId', () => {
  it('gives unique ids with a random prefix per process, so that two processes never share one', async () => {
    const ids = Array.from({ length: 10_000 }, () => newRequestId());
    for (const id of ids.slice(0, 100)) expect(id).toMatch(/^req_[0-9A-Za-z]{11}-[0-9a-z]+$/);
    expect(new Set(ids).size).toBe(ids.length);
    // A fresh copy of the module stands for another process: its prefix is drawn anew.
    vi.resetModules();
    const other = (await import('../../src/platform/ids.js')).newRequestId();
    const prefixOf = (id: string) => id.slice(0, id.indexOf('-'));
    expect(prefixOf(other)).not.toBe(prefixOf(ids[0]!));
  });
});
