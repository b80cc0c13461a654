// History cursors: what peerpay made decodes back to its position; anything else is a 400, never
// a value the database would refuse (a 500).
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../src/platform/cursor.js';
import { AppError } from '../../src/platform/errors.js';

const encode = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

describe('decodeCursor', () => {
  it('reads back a cursor peerpay made', () => {
    const position = { createdAt: new Date('2026-03-04T05:06:07.089Z'), id: 'tr_3xYz:debit' };
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
  });

  it.each([
    ['a year past 9999', ['+275760-09-13T00:00:00.000Z', 'tr_x']],
    ['a year before the database range', ['-271821-04-20T00:00:00.000Z', 'tr_x']],
    ['year 0', ['0000-01-01T00:00:00.000Z', 'tr_x']],
    ['a time before 1970', ['1969-12-31T23:59:59.999Z', 'tr_x']],
    ['a NUL in the id', ['2026-01-01T00:00:00.000Z', 'tr_\u0000']],
    ['a control character in the id', ['2026-01-01T00:00:00.000Z', 'tr\n']],
    ['a non-ASCII id', ['2026-01-01T00:00:00.000Z', 'tr_é']],
    ['an id past 100 characters', ['2026-01-01T00:00:00.000Z', 'x'.repeat(101)]],
  ])('refuses a cursor with %s', (_what, value) => {
    expect(() => decodeCursor(encode(value))).toThrow(AppError);
  });
});
