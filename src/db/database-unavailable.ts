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
 * Runs a short, idempotent statement again when its connection was lost. A connection that is cut
 * or terminated takes its idle pool mates with it, and the pool learns of each a moment later, so
 * the next tries wait a little (50, then 100 ms) for a live one.
 */
export async function retryIfUnavailable<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isDatabaseUnavailable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}
