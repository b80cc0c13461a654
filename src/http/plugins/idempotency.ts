// Idempotency-Key on every route marked `idempotent` (DESIGN §5): a repeat with the same body
// replays the first answer with `Idempotent-Replayed: true`; with a different body it is refused
// with 422; while the first is still running, with 409. Only answers of work that was done are
// kept: successes, and refusals that record an attempt (a declined card). A refusal before any work
// (no card set up, invalid input, a server failure) releases the key, so that the client can fix the
// cause and retry with the same key, as the contract's setup-then-retry flow expects. A route whose
// config says `idempotencyInTransaction` (the stablecoin transfers) has its service claim and
// answer the key in the transaction that does the work, with the same answers (decision 0050):
// here the key is only checked and the request hashed.
import { canonicalJson } from '../../platform/canonical-json.js';
import { sha256Hex } from '../../platform/ids.js';
import { AppError, type ErrorCode } from '../../platform/errors.js';
import type { IdempotencyStore } from '../../platform/idempotency-store.js';
import { isDatabaseUnavailable, retryIfUnavailable } from '../../db/database-unavailable.js';
import type { FastifyReply } from 'fastify';
import type { App } from '../types.js';

// How long a claim blocks a retry of the same key (409, Retry-After: 1). A claim outlives its
// request only when the process died mid-request; every idempotent service also keeps the key as a
// natural key on what it writes, so a takeover finds, never repeats, the first attempt's work. The
// lease is therefore only about how long a client waits after a crash: 10 s, not a minute.
const LEASE_MS = 10_000;

/** Refusals that record an attempt, and so are replayed like a success. */
const KEPT_REFUSALS: ReadonlySet<string> = new Set<ErrorCode>(['card_declined']);

function answerIsKept(status: number, payload: unknown): boolean {
  if (status < 400) return true;
  if (status >= 500 || typeof payload !== 'string') return false;
  try {
    return KEPT_REFUSALS.has(String((JSON.parse(payload) as { code?: unknown }).code));
  } catch {
    return false;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The Idempotency-Key this request claimed, for services that keep it as a natural key. */
    idempotencyKey: string | null;
    /** The hash of the request under its key, for services that store the key's record themselves. */
    idempotencyRequestHash: string | null;
  }
}

/** Sends an answer stored under an Idempotency-Key as it was stored, marked as a replay or not. */
export function sendStoredAnswer(reply: FastifyReply, answer: { status: number; body: string; replayed: boolean }): FastifyReply {
  if (answer.replayed) reply.header('Idempotent-Replayed', 'true');
  return reply
    .code(answer.status)
    .type(answer.status >= 400 ? 'application/problem+json' : 'application/json; charset=utf-8')
    .serializer((payload: unknown) => payload as string)
    .send(answer.body);
}

export function registerIdempotency(app: App, store: IdempotencyStore): void {
  app.decorateRequest('idempotencyKey', null);
  app.decorateRequest('idempotencyRequestHash', null);
  app.addHook('preHandler', async (request, reply) => {
    if (!request.routeOptions.config.idempotent || !request.caller) return;
    const key = request.headers['idempotency-key'];
    if (key === undefined) return;
    if (typeof key !== 'string' || key.length < 1 || key.length > 255) {
      throw new AppError('invalid_request', 'Idempotency-Key must be 1 to 255 characters.');
    }
    const requestHash = sha256Hex(`${request.method} ${request.routeOptions.url}\n${canonicalJson(request.body)}`);
    if (request.routeOptions.config.idempotencyInTransaction) {
      // The service claims and answers it with the work, in one transaction (decision 0050).
      request.idempotencyKey = key;
      request.idempotencyRequestHash = requestHash;
      return;
    }
    const ref = { accountId: request.caller.accountId, key, requestHash };
    const claim = await store.claim({ ...ref, leaseMs: LEASE_MS }).catch(async (error: unknown) => {
      // A lost connection can hide whether the claim was stored: if it was, nothing runs under it,
      // and left there it would block the client's retry for the whole lease.
      if (isDatabaseUnavailable(error)) {
        await retryIfUnavailable(() => store.releaseUncertainClaim(ref)).catch((releaseError: unknown) =>
          request.log.warn({ err: releaseError }, 'could not give back an unconfirmed Idempotency-Key claim'),
        );
      }
      throw error;
    });
    switch (claim.kind) {
      case 'claimed':
        request.idempotencyKey = key;
        return;
      case 'mismatch':
        throw new AppError('idempotency_key_reused', 'This Idempotency-Key was used with a different request.');
      case 'in_progress':
        throw new AppError(
          'idempotency_key_in_use',
          'A request with this Idempotency-Key is still being processed; retry shortly.',
          {},
          { 'Retry-After': '1' },
        );
      case 'replay':
        return sendStoredAnswer(reply, { status: claim.status, body: claim.body, replayed: true });
    }
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.idempotencyKey || !request.caller || request.routeOptions.config.idempotencyInTransaction) return payload;
    const ref = { accountId: request.caller.accountId, key: request.idempotencyKey };
    const record = () =>
      answerIsKept(reply.statusCode, payload)
        ? store.complete({ ...ref, status: reply.statusCode, body: typeof payload === 'string' ? payload : JSON.stringify(payload) })
        : store.release(ref);
    try {
      // Both writes are idempotent; a claim left behind would block the client's retry for the whole lease.
      await retryIfUnavailable(record);
    } catch (error) {
      // The answer goes out regardless: it is what happened. The claim stays in_progress, so a
      // retry waits out the lease and then finds the work by the service's natural key.
      request.log.warn({ err: error }, 'could not record the Idempotency-Key answer');
    }
    return payload;
  });
}
