import { sql, type Kysely } from 'kysely';

// The operator console's searches (DESIGN §18) read by date and by transfer: every transfer of a
// day, newest first, whoever sent it; the failed withdrawals; a transfer's disputes, closed ones
// included. Without these indexes each of those reads the whole table, however few rows it shows.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index fiat_transfers_created on fiat_transfers(created_at desc, id desc)`.execute(db);
  await sql`create index stablecoin_transfers_created on stablecoin_transfers(created_at desc, id desc)`.execute(db);
  await sql`create index withdrawals_failed on withdrawals(created_at desc) where status = 'failed'`.execute(db);
  await sql`create index disputes_transfer on disputes(transfer_id)`.execute(db);
}
