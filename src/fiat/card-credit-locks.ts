// The first steps of a batch of card credits (card-credit-batch.ts), before any ledger lock, in the
// global lock order every card-risk movement keeps (card-risk/user-money.ts):
//   1. the transfer rows: all the members' changes from processing to completed, in one statement;
//   2. the recipients' `accounts` rows, FOR NO KEY UPDATE in id order, in one statement: from here no
//      take-back, repayment or release of any of them can run until the commit;
//   3. what those recipients owe (their receivables), read after the locks (a statement of its own,
//      so its snapshot is taken once they are held), so that the receivables owing anything are
//      locked with the ledger's accounts and repaid first (DESIGN §16).
// Then the group commit creates and locks the ledger accounts (ledger-batch.ts).
import { sql, type RawBuilder } from 'kysely';
import type { Trx } from '../db/transaction.js';
import type { BatchPreparer } from '../ledger/group-commit.js';
import { receivableOf, specOf, type LedgerAccountKey } from '../ledger/ledger-accounts.js';
import type { FiatCurrency } from '../money/assets.js';
import type { FiatTransfer } from './fiat-transfer.js';
import { toTransfer, TRANSFER_COLUMNS } from './fiat-transfers-repository.js';
import type { CardCreditMember } from './card-credit-member.js';

/** Each member whose transfer this batch moved to completed; a member left out was answered by another worker (or an earlier member). */
export type ChargedTransfers = ReadonlyMap<CardCreditMember, FiatTransfer>;

export const prepareCardCredits: BatchPreparer<CardCreditMember, ChargedTransfers> = async (trx, members) => {
  // One change per transfer: a second member of the same transfer (a replay racing its first
  // request) is answered with the transfer as the first one left it.
  const first = new Map<string, CardCreditMember>();
  for (const m of members) if (!first.has(m.transfer.id)) first.set(m.transfer.id, m);
  const completed = await completeCharged(trx, [...first.values()]);
  const charged = new Map<CardCreditMember, FiatTransfer>();
  for (const transfer of completed) charged.set(first.get(transfer.id)!, transfer);
  if (charged.size === 0) return { accounts: [], state: charged };
  const recipients = [...new Set([...charged.values()].map((t) => t.recipientAccountId))].sort((a, b) => a - b);
  await sql`select id from accounts where id = any(${recipients}::integer[]) order by id for no key update`.execute(trx);
  const accounts = await owingReceivables(
    trx,
    [...charged.values()].map((t) => ({ accountId: t.recipientAccountId, currency: t.currency })),
  );
  return { accounts, state: charged };
};

/** The columns a completed transfer comes back with, built once (a fragment of the same text every time). */
const RETURNED = sql.join(TRANSFER_COLUMNS.map((column) => sql.ref(`t.${column}`)));

/** The members' transfers moved from processing to completed with their charges; those that were not in processing are left out. */
async function completeCharged(trx: Trx, members: readonly CardCreditMember[]): Promise<FiatTransfer[]> {
  const rows = await sql<Parameters<typeof toTransfer>[0]>`
    update fiat_transfers t
       set status = 'completed', locked_until = null, processor_ref = c.processor_ref, failure_code = null,
           settles_at = null, check_at = null, completed_at = c.completed_at
      from unnest(${members.map((m) => m.transfer.id)}::text[], ${members.map((m) => m.chargeRef)}::text[],
                  ${members.map((m) => m.now.toISOString())}::timestamptz[]) as c(id, processor_ref, completed_at)
     where t.id = c.id and t.status = 'processing'
    returning ${RETURNED}`.execute(trx);
  return rows.rows.map(toTransfer);
}

type Owing = readonly { accountId: number; currency: FiatCurrency }[];

function receivableKeys(of: Owing): Map<string, LedgerAccountKey> {
  return new Map(of.map(({ accountId, currency }) => [specOf(receivableOf(accountId, currency)).code, receivableOf(accountId, currency)]));
}

function owingCodes(keys: ReadonlyMap<string, LedgerAccountKey>) {
  return sql`select code from ledger_accounts where code = any(${[...keys.keys()]}::text[]) and balance < 0`;
}

/** The receivables of these recipients that are owed something (negative), as ledger keys. */
export async function owingReceivables(trx: Trx, of: Owing): Promise<LedgerAccountKey[]> {
  const keys = receivableKeys(of);
  const rows = await sql<{ code: string }>`${owingCodes(keys)}`.execute(trx);
  return rows.rows.map((row) => keys.get(row.code)!);
}

/**
 * What owingReceivables reads, and the rows of `beside` (another read that must come after the
 * recipients' locks), in one statement: one round trip for both (decision 0065).
 */
export async function owingReceivablesBeside<R extends object>(
  trx: Trx,
  of: Owing,
  beside: RawBuilder<R>,
): Promise<{ owing: LedgerAccountKey[]; rows: R[] }> {
  const keys = receivableKeys(of);
  // One row even when `beside` has none (the left join), marked by `beside_row`.
  const result = await sql<R & { owing_codes: string[]; beside_row: boolean | null }>`
    select o.owing_codes, b.*
      from (select coalesce(array_agg(code), '{}') as owing_codes from (${owingCodes(keys)}) c) o
      left join lateral (select true as beside_row, x.* from (${beside}) x) b on true`.execute(trx);
  const owing = (result.rows[0]?.owing_codes ?? []).map((code) => keys.get(code)!);
  const rows = result.rows
    .filter((row) => row.beside_row === true)
    .map(({ owing_codes: _codes, beside_row: _marker, ...row }) => row as unknown as R);
  return { owing, rows };
}
