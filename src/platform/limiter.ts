// Bounds how many pieces of async work run at once; the rest wait in order. With `maxQueued`, the
// waiting line is bounded too: work that would wait beyond it is refused at once with the error
// `whenFull` makes, so that a flood turns into quick refusals instead of an ever longer wait.
export type Limiter = <T>(work: () => Promise<T>) => Promise<T>;

export interface LimiterOptions {
  /** The most pieces of work that may wait for a slot; unset means no bound. */
  maxQueued?: number;
  /** The error for work refused because the queue is full. */
  whenFull?: () => Error;
}

export function createLimiter(concurrency: number, options: LimiterOptions = {}): Limiter {
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError('concurrency must be a positive integer');
  const maxQueued = options.maxQueued ?? Number.POSITIVE_INFINITY;
  if (!(maxQueued >= 0)) throw new RangeError('maxQueued must be zero or more');
  const whenFull = options.whenFull ?? (() => new Error('the queue is full'));
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (work) => {
    if (running >= concurrency && waiting.length >= maxQueued) throw whenFull();
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
