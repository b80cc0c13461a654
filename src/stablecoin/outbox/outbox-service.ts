// The hot wallet's outbox as a service: the job's round, with the leases this process owes kept
// inside it rather than in the composition root.
import { createOwedLeases, reconcileOutbox } from './outbox-processing.js';

export type HotWalletOutboxDeps = Omit<Parameters<typeof reconcileOutbox>[0], 'owedLeases'>;

export interface HotWalletOutbox {
  /** One round: sends, confirms or ends at most `limit` entries; returns how many it handled. */
  reconcile(limit: number): Promise<number>;
}

export function createHotWalletOutbox(deps: HotWalletOutboxDeps): HotWalletOutbox {
  const withLeases = { ...deps, owedLeases: createOwedLeases() };
  return { reconcile: (limit) => reconcileOutbox(withLeases, limit) };
}
