// Carries every hot wallet transaction to its end: re-broadcasts recorded ones not yet mined (the
// same bytes), and records confirmed or reverted; see stablecoin/outbox/outbox-processing.ts.
import type { HotWalletOutbox } from '../stablecoin/outbox/outbox-service.js';
import type { Job } from './job.js';

/** Entries looked at per round; the rest wait for the next round. */
const BATCH = 50;

export function createOutboxJob({ outbox }: { outbox: HotWalletOutbox }): Job {
  return { name: 'hot-wallet-outbox', chain: true, run: () => outbox.reconcile(BATCH) };
}
