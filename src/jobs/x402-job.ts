// Finishes x402 payments whose settlement outlived their request; see nano/reconcile-payments.ts.
import type { NanoPayments } from '../nano/nano-payments.js';
import type { Job } from './job.js';

/** Payments looked at per round; the rest wait for the next round. */
const BATCH = 20;

export function createX402Job({ nano }: { nano: Pick<NanoPayments, 'reconcile'> }): Job {
  return { name: 'x402-settlements', chain: true, run: () => nano.reconcile(BATCH) };
}
