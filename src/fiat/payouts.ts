// The payouts service (DESIGN §21): a round starts payouts of available money and sends those started.
import { sendPayouts, startPayouts } from './payout-service.js';
import type { PaymentProcessor } from '../adapters/processor/payment-processor.js';
import type { AccountLimits } from '../compliance/limits/limits-service.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';

export interface Payouts {
  /** Starts up to `limit` payouts; answers how many. */
  start(limit: number): Promise<number>;
  /** Sends up to `limit` started payouts to the processor; answers how many. */
  send(limit: number): Promise<number>;
}

export function createPayouts(deps: { db: Db; clock: Clock; processor: PaymentProcessor; limits: AccountLimits }): Payouts {
  return {
    start: (limit) => startPayouts(deps, limit),
    send: (limit) => sendPayouts(deps, limit),
  };
}
