// What the hot wallet can still pay out: its token balance at the newest block, less what the outbox
// has committed to send and the chain has not yet taken from it (withdrawals and cold transfers
// signed but not seen mined). A send asks this under the outbox's nonce lock (its precondition), so
// sends are decided one at a time, each seeing every earlier one: two withdrawals can never both be
// signed against the same tokens, and a withdrawal is signed only once its tokens are there (a sweep
// still in flight counts only once mined). A transaction mined but not yet seen by the outbox job is
// counted twice (gone from the balance and still committed): that errs on waiting one more round.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Trx } from '../../db/transaction.js';
import type { Token } from '../../money/assets.js';
import type { ChainConnection } from '../../adapters/chain/connect-chain.js';
import type { WalletProvider } from '../../adapters/wallet/wallet-provider.js';

/** Tokens the outbox will send from the hot wallet that are still in it, per the outbox's records. */
export async function committedOutflowMinor(db: Db | Trx, token: Token): Promise<bigint> {
  const { rows } = await sql<{ withdrawals: string; cold: string }>`
    select
      (select coalesce(sum(w.net), 0) from withdrawals w
         join hot_wallet_outbox o on o.purpose = 'withdrawal' and o.reference_id = w.id
        where w.currency = ${token} and o.status in ('signed', 'broadcast') and o.block_number is null)::text as withdrawals,
      (select coalesce(sum(c.amount), 0) from cold_transfers c
        where c.token = ${token} and c.status = 'open'
          and not exists (select 1 from hot_wallet_outbox o where o.purpose = 'cold' and o.reference_id = c.id
                             and (o.block_number is not null or o.status in ('confirmed', 'reverted'))))::text as cold`.execute(db);
  const row = rows[0]!;
  return BigInt(row.withdrawals) + BigInt(row.cold);
}

/** The hot wallet's balance of `token` less what is committed: what a new send may use. */
export async function availableLiquidityMinor(
  deps: { chain: ChainConnection; wallets: WalletProvider },
  db: Db | Trx,
  token: Token,
): Promise<bigint> {
  const balance = await deps.chain.chain.getTokenBalance({ token: deps.chain.tokens[token], holder: deps.wallets.hotWallet.address });
  return balance - (await committedOutflowMinor(db, token));
}
