// GET /nano/lookup: does an account exist for this e-mail or handle? The parameters are checked
// strictly before any payment is asked for (a malformed e-mail is a 400, not a paid "not found").
// A well-formed query that finds nobody is a paid answer, {found: false}, not a 404: the lookup
// was done, and charging only for hits would make misses a free oracle (decision record 0009).
import { firstNameOf, normalizeEmail } from '../accounts/account-rules.js';
import { findAccount, type AccountQuery } from '../accounts/accounts-service.js';
import { AppError } from '../platform/errors.js';
import type { Db } from '../db/database.js';

const HANDLE = /^PA-[A-Z0-9]{8}$/;

export type LookupAnswer = { found: true; handle: string; agentHandle: string; firstName: string } | { found: false };

export function lookupQueryOf(params: { email?: string | undefined; handle?: string | undefined }): AccountQuery {
  if (params.email !== undefined && params.handle === undefined) return { email: normalizeEmail(params.email) };
  if (params.handle !== undefined && params.email === undefined) {
    const handle = params.handle.trim().toUpperCase();
    if (!HANDLE.test(handle)) throw new AppError('invalid_request', 'handle must be PA- followed by 8 letters or digits.');
    return { handle };
  }
  throw new AppError('invalid_request', 'Give exactly one of the query parameters email or handle.');
}

export async function lookupAccount(deps: { db: Db }, query: AccountQuery): Promise<LookupAnswer> {
  const account = await findAccount(deps, query);
  if (!account) return { found: false };
  return { found: true, handle: account.handle, agentHandle: account.handle, firstName: firstNameOf(account.name) };
}
