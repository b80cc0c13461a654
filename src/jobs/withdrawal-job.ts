// Ends withdrawals whose chain transaction is final, and sends those whose request died before
// sending; see stablecoin/withdrawal-processing.ts.
import type { StablecoinWithdrawals } from '../stablecoin/stablecoin-withdrawals.js';
import type { Job } from './job.js';

/** Withdrawals looked at per round, per step; the rest wait for the next round. */
const BATCH = 50;

export function createWithdrawalJob({ withdrawals }: { withdrawals: Pick<StablecoinWithdrawals, 'process'> }): Job {
  return { name: 'withdrawals', chain: true, run: (log) => withdrawals.process(BATCH, log) };
}
