// What a new fiat transfer asks about its sender before anything is recorded, in one statement
// (decision 0044): the freeze as last committed, what the sender owes in the transfer's currency,
// whether one of its card payments is disputed, and its processor customer with the instruments
// set up. Each was a round trip of its own. None of these reads is the check that counts for the
// freeze (that one runs under the sender's lock); debt and disputes are refusals before the
// transfer, as they were.
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { coalesce, LOADS_IN_FLIGHT, type Coalesced } from '../platform/coalesce.js';
import { assert } from '../platform/errors.js';
import { freezeOf, type Freeze } from '../compliance/freezes/freezes-repository.js';
import { receivableOf, specOf } from '../ledger/ledger-accounts.js';
import type { FiatCurrency } from '../money/assets.js';

export interface SenderStanding {
  freeze: Freeze | null;
  /** What the sender owes in the currency asked about (0 when it owes nothing, or none was asked). */
  owedMinor: bigint;
  /** A card payment of the sender's is disputed and the dispute is open. */
  cardDisputed: boolean;
  customer: { customerRef: string; cardRef: string | null; bankDebitRef: string | null } | null;
}

/** The sender's standing; `currency` null when the request names none peerpay knows (it is refused anyway). */
export async function readSenderStanding(db: Db, accountId: number, currency: FiatCurrency | null): Promise<SenderStanding> {
  const receivable = currency === null ? null : specOf(receivableOf(accountId, currency)).code;
  const row = await db
    .selectFrom('accounts as a')
    .leftJoin('processor_customers as pc', 'pc.account_id', 'a.id')
    .select(['a.frozen_scope', 'a.frozen_id', 'a.frozen_at', 'a.frozen_by', 'pc.customer_ref', 'pc.card_ref', 'pc.bank_debit_ref'])
    .select((eb) => [
      eb
        .selectFrom('ledger_accounts')
        .select('balance')
        .where('code', '=', receivable ?? '')
        .as('receivable_balance'),
      eb
        .exists(eb.selectFrom('disputes').select('id').where('sender_account_id', '=', accountId).where('status', '=', 'open'))
        .as('card_disputed'),
    ])
    .where('a.id', '=', accountId)
    .executeTakeFirstOrThrow();
  // The receivable is negative by what the sender owes (ledger-accounts.ts).
  const balance = row.receivable_balance === null ? 0n : BigInt(row.receivable_balance);
  return {
    freeze: freezeOf(row),
    owedMinor: balance < 0n ? -balance : 0n,
    cardDisputed: Boolean(row.card_disputed),
    customer: row.customer_ref === null ? null : { customerRef: row.customer_ref, cardRef: row.card_ref, bankDebitRef: row.bank_debit_ref },
  };
}

/** A sender's standing for a transfer in a currency (null: none peerpay knows). */
export interface StandingKey {
  accountId: number;
  currency: FiatCurrency | null;
}

/**
 * readSenderStanding coalesced (platform/coalesce.ts): the transfers of one turn of the event loop
 * read their senders' standings in one statement. Nothing is cached: each read is answered by a
 * statement issued after it was asked.
 */
export type StandingReads = Coalesced<StandingKey, SenderStanding>;

export function coalescedStandings(db: Db): StandingReads {
  return coalesce({ maxBatch: 256, maxInFlight: LOADS_IN_FLIGHT, load: (keys) => readSenderStandings(db, keys) });
}

/** The standing of each key, in the order given, in one statement (the same reads as readSenderStanding's). */
async function readSenderStandings(db: Db, keys: readonly StandingKey[]): Promise<SenderStanding[]> {
  const receivables = keys.map((k) => (k.currency === null ? '' : specOf(receivableOf(k.accountId, k.currency)).code));
  const rows = await sql<
    Parameters<typeof freezeOf>[0] & {
      customer_ref: string | null;
      card_ref: string | null;
      bank_debit_ref: string | null;
      receivable_balance: string | null;
      card_disputed: boolean;
    }
  >`
    select a.frozen_scope, a.frozen_id, a.frozen_at, a.frozen_by, pc.customer_ref, pc.card_ref, pc.bank_debit_ref,
           (select balance::text from ledger_accounts where code = k.receivable) as receivable_balance,
           exists (select 1 from disputes d where d.sender_account_id = a.id and d.status = 'open') as card_disputed
      from unnest(${keys.map((k) => k.accountId)}::integer[], ${receivables}::text[]) with ordinality as k(id, receivable, ord)
      join accounts a on a.id = k.id
      left join processor_customers pc on pc.account_id = a.id
     order by k.ord`.execute(db);
  assert(rows.rows.length === keys.length, 'every sender has a standing');
  return rows.rows.map((row) => {
    const balance = row.receivable_balance === null ? 0n : BigInt(row.receivable_balance);
    return {
      freeze: freezeOf(row),
      owedMinor: balance < 0n ? -balance : 0n,
      cardDisputed: Boolean(row.card_disputed),
      customer:
        row.customer_ref === null ? null : { customerRef: row.customer_ref, cardRef: row.card_ref, bankDebitRef: row.bank_debit_ref },
    };
  });
}
