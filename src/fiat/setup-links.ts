// The setup links service (DESIGN §21): links on which a user saves a card, allows bank debits or
// connects a payout account; their pages; the reconciliation of links the processor finished; and
// what an account has linked.
import {
  completeSandboxSetupLink,
  createSetupLink,
  inspectSetupLink,
  refreshPayoutOnboarding,
  type CompletionResult,
  type LinkState,
  type SetupPurpose,
} from './setup-links-service.js';
import { reconcileSetups } from './setup-reconciliation.js';
import { paymentMethodsOf, type PaymentMethods } from './processor-customers.js';
import type { PaymentProcessor } from '../adapters/processor/payment-processor.js';
import type { SandboxProcessor } from '../adapters/processor/sandbox-processor.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';

export interface SetupLinksDeps {
  db: Db;
  clock: Clock;
  config: Config;
  processor: PaymentProcessor;
  sandboxProcessor: SandboxProcessor | null;
}

export interface SetupLinks {
  create(input: { accountId: number; purpose: SetupPurpose }): Promise<{ url: string; expiresIn: string; expiresAt: Date }>;
  inspect(input: { purpose: SetupPurpose; token: string }): Promise<LinkState>;
  completeSandbox(input: { purpose: SetupPurpose; token: string; outcome: string }): Promise<CompletionResult>;
  refreshPayoutOnboarding(input: { token: string }): Promise<{ url: string } | null>;
  /** One round: asks the processor about up to `limit` links it may have finished; answers how many. */
  reconcile(limit: number): Promise<number>;
  /** The card and bank account an account has linked. */
  paymentMethods: (accountId: number) => Promise<PaymentMethods>;
}

export function createSetupLinks(deps: SetupLinksDeps): SetupLinks {
  return {
    create: (input) => createSetupLink(deps, input),
    inspect: (input) => inspectSetupLink(deps, input),
    completeSandbox: (input) => completeSandboxSetupLink(deps, input),
    refreshPayoutOnboarding: (input) => refreshPayoutOnboarding(deps, input),
    reconcile: (limit) => reconcileSetups(deps, limit),
    paymentMethods: (accountId) => paymentMethodsOf(deps.db, accountId),
  };
}
