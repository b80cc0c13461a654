// A processor call that failed (threw, timed out) has an unknown outcome. The caller keeps its
// record as it was, so that a retry with the same idempotency key asks the processor again.
import { AppError } from '../platform/errors.js';

export function processorUnavailable(cause: unknown): AppError {
  const error = new AppError(
    'processor_unavailable',
    'The payment processor did not answer. Retry shortly with the same Idempotency-Key; you will not be charged twice.',
    {},
    { 'Retry-After': '5' },
  );
  // Kept for the log line the HTTP layer writes; never sent to the client.
  (error as Error).cause = cause;
  return error;
}

/** Runs one processor call; any failure reaches the client as 503 processor_unavailable (its cause logged). */
export async function callProcessor<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw processorUnavailable(error);
  }
}
