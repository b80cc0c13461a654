// What a background job is: a name and one bounded round of work, built by the composition root
// from the services it calls. Its own module, so that each job and the runner that schedules them
// all import it, and not each other.
import type { FastifyBaseLogger } from 'fastify';

export interface Job {
  name: string;
  /** Does one bounded round of work; returns how many items it handled. */
  run(log?: FastifyBaseLogger): Promise<number>;
  /** Follows the chain: runs every config.chainPollIntervalMs instead of every jobIntervalMs. */
  chain?: boolean;
  /** Runs in a queue of its own, about every second: webhooks wait on other servers for up to 10 s. */
  queue?: 'webhooks';
}

/** A job whose round is handed what it uses at every call, D; bindJob makes a Job of it. */
export interface JobOver<D> extends Omit<Job, 'run'> {
  run(deps: D, log?: FastifyBaseLogger): Promise<number>;
}

/** The Job that runs `job` over `deps`, given once. */
export function bindJob<D>(job: JobOver<D>, deps: D): Job {
  return { ...job, run: (log) => job.run(deps, log) };
}
