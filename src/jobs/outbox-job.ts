// Carries every hot wallet transaction to its end: re-broadcasts recorded ones not yet mined (the
// same bytes), and records confirmed or reverted; see stablecoin/outbox/outbox-processing.ts.
import { reconcileOutbox } from '../stablecoin/outbox/outbox-processing.js';
import type { Job } from './job.js';
import type { ChainConnection } from '../adapters/chain/connect-chain.js';
import type { WalletProvider } from '../adapters/wallet/wallet-provider.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';
import type { OwedLeases } from '../stablecoin/outbox/outbox-processing.js';

/** What a round of this job uses. */
export type OutboxJobDeps = {
  owedLeases: OwedLeases;
  chain: ChainConnection;
  clock: Clock;
  config: Config;
  db: Db;
  wallets: WalletProvider;
};

/** Entries looked at per round; the rest wait for the next round. */
const BATCH = 50;

export const outboxJob: Job<OutboxJobDeps> = {
  name: 'hot-wallet-outbox',
  chain: true,
  run: (deps) => reconcileOutbox(deps, BATCH),
};
