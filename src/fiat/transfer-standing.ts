// What a new fiat transfer reads before anything is recorded, in one statement (decisions 0044,
// 0060): its sender's freeze as last committed, what the sender owes in the transfer's currency,
// whether one of its card payments is disputed, its processor customer with the instruments set
// up, the recipient's account by handle, and the transfer the sender already made under the
// request's Idempotency-Key. Each was a round trip of its own. None of these reads is the check
// that counts for the freeze (that one runs under the sender's lock), nor the one that counts for
// the key (the intent's insert conflicts on it, and a request that meets its key taken reads the
// transfer again): debt and disputes are refusals before the transfer, as they were.
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { coalesce, LOADS_IN_FLIGHT, type Coalesced } from '../platform/coalesce.js';
import { assert } from '../platform/errors.js';
import { freezeOf, type Freeze } from '../compliance/freezes/freezes-repository.js';
import { receivableOf, specOf } from '../ledger/ledger-accounts.js';
import type { FiatCurrency } from '../money/assets.js';
import { ACCOUNT_COLUMNS, toAccount, type AccountRow } from '../accounts/accounts-repository.js';
import { TRANSFER_COLUMNS, toTransfer } from './fiat-transfers-repository.js';
import type { FiatTransfer } from './fiat-transfer.js';

export interface SenderStanding {
  freeze: Freeze | null;
  /** What the sender owes in the currency asked about (0 when it owes nothing, or none was asked). */
  owedMinor: bigint;
  /** A card payment of the sender's is disputed and the dispute is open. */
  cardDisputed: boolean;
  customer: { customerRef: string; cardRef: string | null; bankDebitRef: string | null } | null;
  /** The account whose handle the request names; null when there is none. */
  recipient: AccountRow | null;
  /** The transfer the sender made under the request's Idempotency-Key, as last committed; null for none (or no key). */
  earlier: FiatTransfer | null;
}

/** What a send asks about: its sender, the currency (null: none peerpay knows), its recipient's handle (upper case) and its key. */
export interface StandingKey {
  accountId: number;
  currency: FiatCurrency | null;
  recipientHandle: string;
  idempotencyKey: string | null;
}

/**
 * The reads coalesced (platform/coalesce.ts): the transfers of one turn of the event loop read
 * their standings in one statement. Nothing is cached: each read is answered by a statement issued
 * after it was asked.
 */
export type StandingReads = Coalesced<StandingKey, SenderStanding>;

export function coalescedStandings(db: Db): StandingReads {
  return coalesce({ maxBatch: 256, maxInFlight: LOADS_IN_FLIGHT, load: (keys) => readSenderStandings(db, keys) });
}

// The recipient's and the earlier transfer's columns under prefixed names, built once from the
// repositories' column lists (constant texts: nothing from a request is spliced in).
const RECIPIENT = ACCOUNT_COLUMNS.map((c) => `r.${c} as recipient_${c}`).join(', ');
const EARLIER = TRANSFER_COLUMNS.map((c) => `t.${c} as earlier_${c}`).join(', ');
const SELECTED = sql.raw(`${RECIPIENT}, ${EARLIER}`);

type Row = Parameters<typeof freezeOf>[0] & {
  customer_ref: string | null;
  card_ref: string | null;
  bank_debit_ref: string | null;
  receivable_balance: string | null;
  card_disputed: boolean;
} & Record<string, unknown>;

/** Each key's standing, in the order given, in one statement. */
async function readSenderStandings(db: Db, keys: readonly StandingKey[]): Promise<SenderStanding[]> {
  const receivables = keys.map((k) => (k.currency === null ? '' : specOf(receivableOf(k.accountId, k.currency)).code));
  // A null key joins no transfer (null = anything is not true).
  const rows = await sql<Row>`
    select a.frozen_scope, a.frozen_id, a.frozen_at, a.frozen_by, pc.customer_ref, pc.card_ref, pc.bank_debit_ref,
           (select balance::text from ledger_accounts where code = k.receivable) as receivable_balance,
           exists (select 1 from disputes d where d.sender_account_id = a.id and d.status = 'open') as card_disputed,
           ${SELECTED}
      from unnest(${keys.map((k) => k.accountId)}::integer[], ${receivables}::text[], ${keys.map((k) => k.recipientHandle)}::text[],
                  ${keys.map((k) => k.idempotencyKey)}::text[]) with ordinality as k(id, receivable, recipient, idempotency_key, ord)
      join accounts a on a.id = k.id
      left join processor_customers pc on pc.account_id = a.id
      left join accounts r on r.handle = k.recipient
      left join fiat_transfers t on t.sender_account_id = a.id and t.idempotency_key = k.idempotency_key
     order by k.ord`.execute(db);
  assert(rows.rows.length === keys.length, 'every sender has a standing');
  return rows.rows.map(standingOf);
}

function standingOf(row: Row): SenderStanding {
  // The receivable is negative by what the sender owes (ledger-accounts.ts).
  const balance = row.receivable_balance === null ? 0n : BigInt(row.receivable_balance);
  return {
    freeze: freezeOf(row),
    owedMinor: balance < 0n ? -balance : 0n,
    cardDisputed: Boolean(row.card_disputed),
    customer: row.customer_ref === null ? null : { customerRef: row.customer_ref, cardRef: row.card_ref, bankDebitRef: row.bank_debit_ref },
    recipient: row.recipient_id === null ? null : toAccount(prefixed(row, 'recipient_', ACCOUNT_COLUMNS)),
    earlier: row.earlier_id === null ? null : toTransfer(prefixed(row, 'earlier_', TRANSFER_COLUMNS)),
  };
}

/** The columns read under `prefix`, by their own names. */
function prefixed<C extends string, T>(row: Record<string, unknown>, prefix: string, columns: readonly C[]): T {
  return Object.fromEntries(columns.map((c) => [c, row[`${prefix}${c}`]])) as T;
}
