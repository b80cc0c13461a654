// What a background job is: a name and one bounded round of work. Its own module, so that each
// job and the runner that schedules them all import it, and not each other.
import type { FastifyBaseLogger } from 'fastify';

/** D: what the job's round uses, declared by each job; the runner passes it the composition root's. */
export interface Job<D = never> {
  name: string;
  /** Does one bounded round of work; returns how many items it handled. */
  run(deps: D, log?: FastifyBaseLogger): Promise<number>;
  /** Follows the chain: runs every config.chainPollIntervalMs instead of every jobIntervalMs. */
  chain?: boolean;
  /** Runs in a queue of its own, about every second: webhooks wait on other servers for up to 10 s. */
  queue?: 'webhooks';
}
