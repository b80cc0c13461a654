// Finishes x402 payments whose settlement outlived their request; see nano/reconcile-payments.ts.
import { reconcileX402Payments } from '../nano/reconcile-payments.js';
import type { Job } from './job.js';
import type { ChainConnection } from '../adapters/chain/connect-chain.js';
import type { WalletProvider } from '../adapters/wallet/wallet-provider.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';

/** What a round of this job uses. */
export type X402JobDeps = { chain: ChainConnection; clock: Clock; db: Db; wallets: WalletProvider };

/** Payments looked at per round; the rest wait for the next round. */
const BATCH = 20;

export const x402Job: Job<X402JobDeps> = {
  name: 'x402-settlements',
  chain: true,
  run: (deps) => reconcileX402Payments(deps, BATCH),
};
