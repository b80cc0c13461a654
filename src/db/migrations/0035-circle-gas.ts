import { sql, type Kysely } from 'kysely';

// Gas for EOA wallets with WALLET_PROVIDER=circle and CIRCLE_ACCOUNT_TYPE=EOA (decision 0046): the
// treasury wallet sends a user's wallet POL before its sweep, as a Circle transfer through the
// outbox (purpose 'gas', reference `<account id>:<n>`, the n-th top-up of that wallet; token
// 'POL', amount in wei). At most one open per destination: the index makes a second one fail.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table hot_wallet_outbox drop constraint if exists hot_wallet_outbox_purpose_check`.execute(db);
  await sql`alter table hot_wallet_outbox add constraint hot_wallet_outbox_purpose_check
            check (purpose in ('sweep', 'withdrawal', 'x402', 'cold', 'gas'))`.execute(db);
  await sql`alter table hot_wallet_outbox drop constraint if exists hot_wallet_outbox_circle_token_check`.execute(db);
  await sql`alter table hot_wallet_outbox add constraint hot_wallet_outbox_circle_token_check
            check (circle_token in ('USDC', 'EURC', 'POL'))`.execute(db);
  await sql`create unique index hot_wallet_outbox_one_open_gas on hot_wallet_outbox(circle_destination)
            where purpose = 'gas' and status in ('signed', 'broadcast')`.execute(db);
}
