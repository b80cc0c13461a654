// Ends withdrawals whose chain transaction is final, and sends those whose request died before
// sending; see stablecoin/withdrawal-processing.ts.
import { processWithdrawals } from '../stablecoin/withdrawal-processing.js';
import type { Job } from './job.js';

/** What a round of this job uses. */
export type WithdrawalJobDeps = Parameters<typeof processWithdrawals>[0];

/** Withdrawals looked at per round, per step; the rest wait for the next round. */
const BATCH = 50;

export const withdrawalJob: Job<WithdrawalJobDeps> = {
  name: 'withdrawals',
  chain: true,
  run: (deps, log) => processWithdrawals(deps, BATCH, log),
};
