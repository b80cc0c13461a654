// Opaque pagination cursors for lists ordered newest first by (created_at, id): the position of
// the last item of a page, base64url-encoded. Clients pass them back unchanged.
import { AppError } from '../platform/errors.js';

export interface Position {
  createdAt: Date;
  id: string;
}

const MAX_ID_LENGTH = 100;

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
  if (typeof iso !== 'string' || typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_LENGTH) throw invalid;
  const createdAt = new Date(iso);
  if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== iso) throw invalid;
  return { createdAt, id };
}
