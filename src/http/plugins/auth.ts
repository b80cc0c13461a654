// Bearer API-key authentication. Routes are authenticated unless their config says `auth: 'public'`
// (no key looked at) or `auth: 'optional'` (a valid key is used when sent, a bad one refused).
import type { FastifyRequest } from 'fastify';
import { hashApiKey, isWellFormedApiKey, sameHash } from '../../accounts/api-keys.js';
import { findActiveKey } from '../../accounts/accounts-repository.js';
import type { Db } from '../../db/database.js';
import { AppError } from '../../platform/errors.js';
import type { App, AuthenticatedCaller } from '../types.js';

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="peerpay"' };

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header === undefined) return null;
  const match = /^Bearer ([^\s]+)$/i.exec(header);
  if (!match) throw new AppError('unauthorized', 'Send the API key as "Authorization: Bearer <API_KEY>".', {}, CHALLENGE);
  return match[1]!;
}

async function callerFor(db: Db, key: string): Promise<AuthenticatedCaller> {
  const invalid = new AppError('unauthorized', 'The API key is invalid or has been revoked.', {}, CHALLENGE);
  if (!isWellFormedApiKey(key)) throw invalid;
  const hash = hashApiKey(key);
  const row = await findActiveKey(db, hash);
  if (!row || !sameHash(row.keyHash, hash)) throw invalid;
  return { accountId: row.accountId, handle: row.handle, apiKeyId: row.keyId };
}

export function registerAuth(app: App, db: Db): void {
  app.decorateRequest('caller', null);
  app.addHook('preHandler', async (request) => {
    const mode = request.routeOptions.config.auth ?? 'required';
    if (mode === 'public' || request.is404) return;
    const token = bearerToken(request);
    if (token === null) {
      if (mode === 'optional') return;
      throw new AppError('unauthorized', 'This endpoint needs an API key: "Authorization: Bearer <API_KEY>".', {}, CHALLENGE);
    }
    request.caller = await callerFor(db, token);
  });
}

/** The authenticated caller of a route that requires a key. */
export function callerOf(request: FastifyRequest): AuthenticatedCaller {
  if (!request.caller) throw new AppError('unauthorized', 'This endpoint needs an API key.', {}, CHALLENGE);
  return request.caller;
}
