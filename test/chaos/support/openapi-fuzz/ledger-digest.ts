// Everything a request could change that matters to money and accounts, in one query, compared
// before and after every rejected fuzz case. `money` is every ledger account's balances (account by
// account, so a move between two accounts shows) and the ledger's transfers: no refusal may change
// it, not even a declined card. `records` counts the rows a request could add anywhere else, with
// the account fields a refused PATCH must not half-write, the Idempotency-Keys a refusal must
// release and the sandbox clock (failed-login counters are left out: counting a wrong password is
// what a 401 is for).
import { sql } from 'kysely';
import type { Db } from '../../../../src/db/database.js';

export interface LedgerDigest {
  money: string;
  records: string;
}

export async function ledgerDigest(db: Db): Promise<LedgerDigest> {
  const result = await sql<{ money: string; records: string }>`
    select
      (select coalesce(md5(string_agg(id || ':' || balance || ':' || pending_debits || ':' || pending_credits, ',' order by id)), '') || '|' || count(*)
         from ledger_accounts)
      || '|' || (select count(*) || ':' || coalesce(sum(amount), 0) from ledger_transfers) as money,
      concat_ws(',',
        (select count(*) || md5(coalesce(string_agg(concat_ws(':', id, name, phone, website, discoverable, wallet_id, deposit_address), ',' order by id), '')) from accounts), (select count(*) from api_keys where revoked_at is null),
        (select count(*) from fiat_transfers), (select count(*) from stablecoin_transfers),
        (select count(*) from withdrawals), (select count(*) from hot_wallet_outbox),
        (select count(*) || ':' || count(used_at) from links), (select count(*) from payouts), (select count(*) from sandbox_charges),
        (select count(*) from sandbox_instruments), (select count(*) from processor_customers),
        (select md5(coalesce(string_agg(address, ',' order by account_id), '')) from withdrawal_addresses), (select count(*) from x402_payments),
        (select count(*) from chain_deposits),
        (select count(*) || ':' || count(*) filter (where state = 'in_progress') from idempotency_keys),
        (select coalesce(max(offset_ms), 0) from sandbox_clock)) as records`.execute(db);
  return result.rows[0]!;
}
