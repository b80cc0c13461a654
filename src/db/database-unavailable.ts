// Tells a lost or refused database connection from every other failure. Such a failure says
// nothing about the request: the client should retry (with the same Idempotency-Key), so it is
// answered 503 with Retry-After rather than 500. What the request did is either committed whole
// or not at all; every money-moving service finds its own earlier work by its natural key.
const NODE_NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

/** SQLSTATE class 08 (connection exception) and 57P01–57P03 (the server is shutting the session down or not accepting). */
function isUnavailableSqlState(code: string): boolean {
  return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03';
}

const PG_CONNECTION_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
];

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (NODE_NETWORK_CODES.has(code) || (/^[0-9A-Z]{5}$/.test(code) && isUnavailableSqlState(code))))
    return true;
  if (PG_CONNECTION_MESSAGES.some((m) => error.message.startsWith(m))) return true;
  return error.cause !== undefined && error.cause !== error && isDatabaseUnavailable(error.cause);
}

/**
 * How long a short, idempotent statement is tried again over lost connections. A cut takes every
 * connection of the pool at once, and terminated backends die one by one, each a moment after it
 * was told to: the pool learns of every dead one only when it hands it out, so several tries in a
 * row can meet dead connections. Two seconds outlast that; what these statements guard (an
 * Idempotency-Key's answer, an outbox lease) would otherwise block a client's retry for a lease.
 */
export const RETRY_WITHIN_MS = 2_000;

/**
 * Runs a short, idempotent statement again when its connection was lost, waiting 50, 100, 200,
 * then 400 ms between tries, until `withinMs` would be passed: then the last failure is thrown.
 * Any other failure is thrown at once.
 */
export async function retryIfUnavailable<T>(work: () => Promise<T>, withinMs = RETRY_WITHIN_MS): Promise<T> {
  const started = Date.now();
  for (let wait = 50; ; wait = Math.min(wait * 2, 400)) {
    try {
      return await work();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || Date.now() - started + wait > withinMs) throw error;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
