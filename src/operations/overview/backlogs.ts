// What is waiting, for the Overview page: one short query of counts over partial indexes' worth of
// rows (the same figures as the backlog gauges of /metrics, plus payouts and open review items).
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

export interface Backlogs {
  withdrawalsPending: number;
  outboxUnfinished: number;
  fiatProcessing: number;
  payoutsPending: number;
  webhookDeliveriesPending: number;
  reviewItemsOpen: number;
}

export async function readBacklogs(db: Db): Promise<Backlogs> {
  const { rows } = await sql<Record<keyof Backlogs, string>>`
    select
      (select count(*) from withdrawals where status = 'pending')::text as "withdrawalsPending",
      (select count(*) from hot_wallet_outbox where status in ('signed', 'broadcast'))::text as "outboxUnfinished",
      (select count(*) from fiat_transfers where status = 'processing')::text as "fiatProcessing",
      (select count(*) from payouts where status = 'pending')::text as "payoutsPending",
      (select count(*) from webhook_deliveries where status = 'pending')::text as "webhookDeliveriesPending",
      (select count(*) from review_items where status = 'open')::text as "reviewItemsOpen"`.execute(db);
  const row = rows[0]!;
  return {
    withdrawalsPending: Number(row.withdrawalsPending),
    outboxUnfinished: Number(row.outboxUnfinished),
    fiatProcessing: Number(row.fiatProcessing),
    payoutsPending: Number(row.payoutsPending),
    webhookDeliveriesPending: Number(row.webhookDeliveriesPending),
    reviewItemsOpen: Number(row.reviewItemsOpen),
  };
}
