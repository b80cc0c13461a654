// GET /nano/search: the public directory of users who opted in (PATCH /account discoverable: true).
// `q` matches name or handle (case-insensitive substring); `website` matches the host of the site
// a user listed (with or without "www."). Answers handle, name and website, never an e-mail or
// phone, at most MAX_RESULTS of them.
import { sql } from 'kysely';
import { displayNameOf } from '../accounts/account-rules.js';
import type { Db } from '../db/database.js';
import { AppError } from '../platform/errors.js';

export const MAX_RESULTS = 20;
const MAX_QUERY_LENGTH = 100;
const HOST = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;

export interface DirectoryQuery {
  /** Lower-case text to find in names and handles. */
  text: string | null;
  /** A host without "www.", e.g. "example.com". */
  host: string | null;
}

export interface DirectoryEntry {
  handle: string;
  name: string;
  website: string | null;
}

/** Checks the parameters; throws 400 problems, so a bad search costs nothing. */
export function directoryQueryOf(params: { q?: string | undefined; website?: string | undefined }): DirectoryQuery {
  const text = params.q === undefined ? null : params.q.trim().replace(/\s+/g, ' ');
  if (text !== null && (text.length === 0 || text.length > MAX_QUERY_LENGTH)) {
    throw new AppError('invalid_request', `q must be 1 to ${MAX_QUERY_LENGTH} characters.`);
  }
  const host = params.website === undefined ? null : hostOf(params.website);
  if (text === null && host === null)
    throw new AppError('invalid_request', 'Give q (a name or handle), website (a site or host), or both.');
  return { text: text?.toLowerCase() ?? null, host };
}

/** "https://www.Example.com/about" or "example.com" → "example.com". */
function hostOf(input: string): string {
  const trimmed = input.trim();
  let hostname: string;
  try {
    hostname = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`).hostname;
  } catch {
    throw new AppError('invalid_request', 'website must be a site address such as example.com or https://example.com.');
  }
  const host = hostname.toLowerCase().replace(/^www\./, '');
  if (host.length === 0 || host.length > 253 || !HOST.test(host)) {
    throw new AppError('invalid_request', 'website must be a site address such as example.com or https://example.com.');
  }
  return host;
}

function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export async function searchDirectory(db: Db, query: DirectoryQuery): Promise<DirectoryEntry[]> {
  let select = db.selectFrom('accounts').select(['handle', 'name', 'website']).where('discoverable', '=', true);
  if (query.text !== null) {
    const pattern = `%${likeLiteral(query.text)}%`;
    select = select.where((eb) => eb.or([eb('name', 'ilike', pattern), eb('handle', 'ilike', pattern)]));
  }
  if (query.host !== null) {
    // Websites are stored as normalised URLs (scheme://host[:port]/...), so the host sits between
    // "://" and the first "/" or ":".
    const patterns: string[] = [];
    for (const scheme of ['http', 'https']) {
      for (const host of [query.host, `www.${query.host}`]) {
        patterns.push(`${scheme}://${likeLiteral(host)}/%`, `${scheme}://${likeLiteral(host)}:%`);
      }
    }
    select = select.where((eb) => eb.or(patterns.map((p) => eb(sql<string>`lower(website)`, 'like', p))));
  }
  const rows = await select.orderBy('name').orderBy('handle').limit(MAX_RESULTS).execute();
  // Names saved before today's rules are shown by them: no handle or status of their own.
  return rows.map((r) => ({ handle: r.handle, name: displayNameOf(r.name), website: r.website }));
}
