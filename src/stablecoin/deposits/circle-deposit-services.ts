// WALLET_PROVIDER=circle: the deposit side's services (DESIGN §19), built once by the composition
// root from what Circle gives (its transaction list and its notification verifier) and the
// treasury wallet's address; every field null with WALLET_PROVIDER=self.
import type { Address } from 'viem';
import type { CircleApi, CircleNotificationVerifier } from '../../adapters/circle/circle-port.js';
import { createCircleDeposits, type CircleDeposits } from './circle-deposits.js';
import { createCircleDepositPoll, type CircleDepositPoll } from './circle-deposit-poll.js';

/** What the deposit side asks of the Circle provider. */
export interface CircleDepositInputs {
  api: Pick<CircleApi, 'listTransactions'>;
  verifier: CircleNotificationVerifier;
  /** The treasury wallet's address (null before it exists): what it sends a user is not a deposit. */
  treasuryAddress: () => Promise<Address | null>;
}

export interface CircleDepositServices {
  /** Verifies POST /webhooks/circle. */
  circleNotifications: CircleNotificationVerifier | null;
  circleDeposits: CircleDeposits | null;
  /** The reconciliation poll; its job replaces the chain-log deposit watcher. */
  circleDepositPoll: CircleDepositPoll | null;
}

export function createCircleDepositServices(
  inputs: CircleDepositInputs | null,
  deps: Omit<Parameters<typeof createCircleDeposits>[0], 'treasuryAddress'>,
): CircleDepositServices {
  if (inputs === null) return { circleNotifications: null, circleDeposits: null, circleDepositPoll: null };
  const circleDeposits = createCircleDeposits({ ...deps, treasuryAddress: inputs.treasuryAddress });
  return {
    circleNotifications: inputs.verifier,
    circleDeposits,
    circleDepositPoll: createCircleDepositPoll({ db: deps.db, circle: inputs.api, deposits: circleDeposits, clock: deps.clock }),
  };
}
