// The platform gives back (part of) its fee: a refund with refundFee, a dispute (DESIGN §16). The
// fees of a currency are kept in shards (ledger-accounts.ts FEE_SHARDS), none of which may go
// below zero: the fee comes from the fullest shard, or, if even that one cannot cover it (fees
// spread thin across shards), from `losses`, so that the give-back never fails for want of a row.
import { sql } from 'kysely';
import type { TransferInput } from '../../ledger/ledger.js';
import type { Trx } from '../../db/transaction.js';
import { FEE_SHARDS, platformAccount, type LedgerAccountKey } from '../../ledger/ledger-accounts.js';
import type { FiatCurrency } from '../../money/assets.js';

/** The transfers that move `amountMinor` of the platform's fees to `to` (none for zero). */
export async function feeGiveBack(
  trx: Trx,
  currency: FiatCurrency,
  amountMinor: bigint,
  to: LedgerAccountKey,
  code: string,
): Promise<TransferInput[]> {
  if (amountMinor === 0n) return [];
  const fullest = await sql<{ code: string; balance: string }>`
    select code, balance::text as balance from ledger_accounts
     where kind = 'fees' and owner_account_id is null and asset = ${currency}
     order by balance desc, id limit 1`.execute(trx);
  const row = fullest.rows[0];
  const debit: LedgerAccountKey =
    row && BigInt(row.balance) >= amountMinor
      ? { platform: 'fees', asset: currency, shard: shardOf(row.code) }
      : platformAccount('losses', currency);
  return [{ type: 'posted', debit, credit: to, amountMinor, code }];
}

/** `platform:fees:USD` is shard 0, `platform:fees:USD:7` shard 7. */
function shardOf(code: string): number {
  const shard = Number(code.split(':')[3] ?? '0');
  return Number.isInteger(shard) && shard >= 0 && shard < FEE_SHARDS ? shard : 0;
}
