// SQL for peerpay's side of the processor relationship: one customer per account and the references
// of the instruments set up for it. References only: never a card or bank number.
import type { Db } from '../db/database.js';
import type { Trx } from '../db/transaction.js';
import type { InstrumentKind } from '../adapters/processor/payment-processor.js';

export interface ProcessorCustomer {
  accountId: number;
  customerRef: string;
  cardRef: string | null;
  bankDebitRef: string | null;
  payoutRef: string | null;
  /** The payout account made at the processor (Stripe Connect), ready or not. */
  payoutAccountRef: string | null;
}

const COLUMN_OF: Record<InstrumentKind, 'card_ref' | 'bank_debit_ref' | 'payout_ref'> = {
  card: 'card_ref',
  bank_debit: 'bank_debit_ref',
  payout: 'payout_ref',
};

export async function findProcessorCustomer(db: Db | Trx, accountId: number): Promise<ProcessorCustomer | undefined> {
  const row = await db.selectFrom('processor_customers').selectAll().where('account_id', '=', accountId).executeTakeFirst();
  return row
    ? {
        accountId: row.account_id,
        customerRef: row.customer_ref,
        cardRef: row.card_ref,
        bankDebitRef: row.bank_debit_ref,
        payoutRef: row.payout_ref,
        payoutAccountRef: row.payout_account_ref,
      }
    : undefined;
}

/** Records the account's payout account at the processor unless one is recorded already; returns the one recorded. */
export async function recordPayoutAccount(db: Db, input: { accountId: number; payoutAccountRef: string }): Promise<string> {
  await db
    .updateTable('processor_customers')
    .set({ payout_account_ref: input.payoutAccountRef })
    .where('account_id', '=', input.accountId)
    .where('payout_account_ref', 'is', null)
    .execute();
  const row = await db
    .selectFrom('processor_customers')
    .select('payout_account_ref')
    .where('account_id', '=', input.accountId)
    .executeTakeFirstOrThrow();
  if (row.payout_account_ref === null) throw new Error(`payout account of account ${input.accountId} not recorded`);
  return row.payout_account_ref;
}

/** The account whose payout account at the processor this is, locked for this transaction. */
export async function lockCustomerByPayoutAccount(trx: Trx, payoutAccountRef: string): Promise<ProcessorCustomer | undefined> {
  const row = await trx
    .selectFrom('processor_customers')
    .select('account_id')
    .where('payout_account_ref', '=', payoutAccountRef)
    .forUpdate()
    .executeTakeFirst();
  return row ? findProcessorCustomer(trx, row.account_id) : undefined;
}

/** Records the account's customer unless one is recorded already (a concurrent request won). */
export async function insertProcessorCustomer(db: Db, input: { accountId: number; customerRef: string }): Promise<void> {
  await db
    .insertInto('processor_customers')
    .values({ account_id: input.accountId, customer_ref: input.customerRef })
    .onConflict((oc) => oc.column('account_id').doNothing())
    .execute();
}

/** A newly set up instrument replaces the account's previous one of the same kind. */
export async function setInstrumentRef(trx: Trx, input: { accountId: number; kind: InstrumentKind; ref: string }): Promise<void> {
  const result = await trx
    .updateTable('processor_customers')
    .set({ [COLUMN_OF[input.kind]]: input.ref })
    .where('account_id', '=', input.accountId)
    .executeTakeFirst();
  if (result.numUpdatedRows !== 1n) throw new Error(`no processor customer for account ${input.accountId}`);
}
