// Finishes x402 payments whose settlement outlived their request; see nano/reconcile-payments.ts.
import { reconcileX402Payments } from '../nano/reconcile-payments.js';
import type { Job } from './job.js';

/** Payments looked at per round; the rest wait for the next round. */
const BATCH = 20;

export const x402Job: Job = {
  name: 'x402-settlements',
  chain: true,
  run: (deps) => reconcileX402Payments(deps, BATCH),
};
