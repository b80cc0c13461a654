// Opaque pagination cursors for lists ordered newest first by (created_at, id): the position of
// the last item of a page, base64url-encoded. Clients pass them back unchanged.
import { AppError } from './errors.js';

export interface Position {
  createdAt: Date;
  id: string;
}

const PRINTABLE_ID = /^[\x21-\x7e]{1,100}$/;

export function encodeCursor(position: Position): string {
  return Buffer.from(JSON.stringify([position.createdAt.toISOString(), position.id]), 'utf8').toString('base64url');
}

/** The position a cursor names; a cursor that peerpay did not make is a 400. */
export function decodeCursor(cursor: string): Position {
  const invalid = new AppError('invalid_request', 'cursor is not valid; pass nextCursor from the previous page unchanged.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw invalid;
  const [iso, id] = parsed as unknown[];
  // Ids are printable ASCII: a NUL or control character would reach the database's text
  // comparison, which refuses it (a 500), and peerpay never made such an id.
  if (typeof iso !== 'string' || typeof id !== 'string' || !PRINTABLE_ID.test(id)) throw invalid;
  const createdAt = new Date(iso);
  // Only times peerpay can have written: a year past 9999 or before 1970 round-trips through
  // Date but is out of the database's timestamp range (PostgreSQL stops at 4713 BC).
  if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== iso || createdAt.getTime() < 0 || iso.length !== 24) throw invalid;
  return { createdAt, id };
}
