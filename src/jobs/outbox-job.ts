// Carries every hot wallet transaction to its end: re-broadcasts recorded ones not yet mined (the
// same bytes), and records confirmed or reverted; see stablecoin/outbox/outbox-processing.ts.
import { reconcileOutbox } from '../stablecoin/outbox/outbox-processing.js';
import type { Job } from './job.js';

/** Entries looked at per round; the rest wait for the next round. */
const BATCH = 50;

export const outboxJob: Job = {
  name: 'hot-wallet-outbox',
  chain: true,
  run: (deps) => reconcileOutbox(deps, BATCH),
};
