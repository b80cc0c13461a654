// The account's customer at the processor, created the first time it is needed.
import type { Db } from '../db/database.js';
import { findAccountById } from '../accounts/accounts-repository.js';
import { findProcessorCustomer, insertProcessorCustomer, type ProcessorCustomer } from './processor-customers-repository.js';
import type { PaymentProcessor } from '../adapters/processor/payment-processor.js';

export async function ensureProcessorCustomer(
  deps: { db: Db; processor: PaymentProcessor },
  accountId: number,
): Promise<ProcessorCustomer> {
  const existing = await findProcessorCustomer(deps.db, accountId);
  if (existing) return existing;
  const account = await findAccountById(deps.db, accountId);
  if (!account) throw new Error(`account ${accountId} does not exist`);
  // The processor call runs with no transaction open. Its idempotency key is the account's handle
  // (random, so another deployment's account with the same id never shares it), so two concurrent
  // first calls name the same customer; the insert keeps whichever came first.
  const { customerRef } = await deps.processor.createCustomer({
    accountId,
    email: account.email,
    idempotencyKey: `customer-${account.handle}`,
  });
  await insertProcessorCustomer(deps.db, { accountId, customerRef });
  const stored = await findProcessorCustomer(deps.db, accountId);
  if (!stored) throw new Error(`processor customer of account ${accountId} not readable after insert`);
  return stored;
}

/** Which ways of paying and being paid the account has set up, so a client can tell before it tries. */
export interface PaymentMethods {
  readonly card: boolean;
  readonly bankDebit: boolean;
  readonly payouts: boolean;
}

export async function paymentMethodsOf(db: Db, accountId: number): Promise<PaymentMethods> {
  const customer = await findProcessorCustomer(db, accountId);
  return { card: Boolean(customer?.cardRef), bankDebit: Boolean(customer?.bankDebitRef), payouts: Boolean(customer?.payoutRef) };
}
