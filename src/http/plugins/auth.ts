// Bearer API-key authentication. Routes are authenticated unless their config says `auth: 'public'`
// (no key looked at) or `auth: 'optional'` (a valid key is used when sent, a bad one refused).
import type { FastifyRequest } from 'fastify';
import { hashApiKey, isWellFormedApiKey, sameHash } from '../../accounts/api-keys.js';
import type { AccountLookups } from '../../accounts/account-lookups.js';
import { freezeOf } from '../../compliance/freezes/freezes-repository.js';
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

// Made only for a refusal: an error's stack trace is costly, and a request with a good key needs none.
function invalidKey(): AppError {
  return new AppError('unauthorized', 'The API key is invalid or has been revoked.', {}, CHALLENGE);
}

async function callerFor(lookups: AccountLookups, key: string, withBalances: boolean): Promise<AuthenticatedCaller> {
  if (!isWellFormedApiKey(key)) throw invalidKey();
  const hash = hashApiKey(key);
  // The key is read on every request (coalesced with the other requests of this turn into one
  // statement, never cached), so a revocation is refused by the very next request in every process.
  if (withBalances) {
    // A balance read: key and balances in the same statement.
    const row = await lookups.activeKeyWithBalances(hash);
    if (!row || !sameHash(row.keyHash, hash)) throw invalidKey();
    return { accountId: row.accountId, handle: row.handle, apiKeyId: row.keyId, balances: row.balances };
  }
  const row = await lookups.activeKey(hash);
  if (!row || !sameHash(row.keyHash, hash)) throw invalidKey();
  return { accountId: row.accountId, handle: row.handle, apiKeyId: row.keyId, freeze: freezeOf(row.freeze) };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Why the key was refused; answered in preParsing, after the rate limiter has counted the request. */
    authFailure: AppError | null;
  }
}

export function registerAuth(app: App, lookups: AccountLookups): void {
  app.decorateRequest('caller', null);
  app.decorateRequest('authFailure', null);
  app.decorateRequest('accountLookup', null);
  // onRequest, before the body is read or validated: a request without a valid key learns nothing
  // about what the body should be (401, never a 400 on its fields), and costs no body parsing. The
  // refusal itself waits for preParsing, so that the rate limiter (an onRequest hook of each route,
  // run after this one) counts it against the client's address: guessed keys are limited too.
  app.addHook('onRequest', async (request) => {
    const mode = request.routeOptions.config.auth ?? 'required';
    if (mode === 'public' || request.is404) return;
    try {
      const token = bearerToken(request);
      if (token === null) {
        if (mode === 'optional') return;
        throw new AppError('unauthorized', 'Missing API key: send it as "Authorization: Bearer <API_KEY>".', {}, CHALLENGE);
      }
      const { authReadsBalances, accountAlongsideKey } = request.routeOptions.config;
      // Asked in the same turn as the key, so that both are answered by one statement (one round
      // trip instead of two in a row); the row is only used once the key is accepted.
      const alongside = accountAlongsideKey?.(request);
      if (alongside) request.accountLookup = { key: alongside, row: settledLater(lookups.account(alongside)) };
      request.caller = await callerFor(lookups, token, authReadsBalances === true);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      request.authFailure = error;
    }
  });
  app.addHook('preParsing', async (request) => {
    if (request.authFailure) throw request.authFailure;
  });
}

/** `promise`, marked as handled now: a request refused before it awaits the row leaves no unhandled rejection. */
function settledLater<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

/** The authenticated caller of a route that requires a key. */
export function callerOf(request: FastifyRequest): AuthenticatedCaller {
  if (!request.caller) throw new AppError('unauthorized', 'Missing API key: this endpoint needs one.', {}, CHALLENGE);
  return request.caller;
}
