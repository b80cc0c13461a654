// Bounds how many pieces of async work run at once; the rest wait in order.
export type Limiter = <T>(work: () => Promise<T>) => Promise<T>;

export function createLimiter(concurrency: number): Limiter {
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError('concurrency must be a positive integer');
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (work) => {
    while (running >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await work();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
