// The console's transfers (DESIGN §18): the search and one transfer with everything that moved
// or was told about it. Built once in the composition root.
import type { Db } from '../../db/database.js';
import {
  attemptsOfEvents,
  disputesOfTransfer,
  eventsOfTransfer,
  findTransferRecord,
  ledgerEntriesOf,
  operationIdsOf,
  refundsOfTransfer,
  type LedgerEntryRow,
  type TransferDisputeRow,
  type TransferEventRow,
  type TransferRecord,
  type TransferRefundRow,
  type WebhookAttemptRow,
} from './transfer-detail-repository.js';
import { accountIdByHandleOrEmail, searchTransfers, type TransferFilter, type TransferSearchRow } from './transfer-search-repository.js';

export interface TransferDetail {
  transfer: TransferRecord;
  refunds: TransferRefundRow[];
  disputes: TransferDisputeRow[];
  ledgerEntries: LedgerEntryRow[];
  events: TransferEventRow[];
  webhookAttempts: WebhookAttemptRow[];
}

export interface TransferDirectory {
  search(filter: TransferFilter): Promise<{ rows: TransferSearchRow[]; more: boolean }>;
  /** The account a handle or e-mail names; undefined when none does. */
  accountOf(handleOrEmail: string): Promise<number | undefined>;
  /** Undefined for an unknown id. */
  detail(id: string): Promise<TransferDetail | undefined>;
}

export function createTransferDirectory(deps: { db: Db }): TransferDirectory {
  const { db } = deps;
  return {
    search: (filter) => searchTransfers(db, filter),
    accountOf: (text) => accountIdByHandleOrEmail(db, text),
    async detail(id) {
      const transfer = await findTransferRecord(db, id);
      if (!transfer) return undefined;
      const [refunds, disputes, events] = await Promise.all([
        transfer.rail === 'fiat' ? refundsOfTransfer(db, id) : [],
        transfer.rail === 'fiat' ? disputesOfTransfer(db, transfer) : [],
        eventsOfTransfer(db, transfer),
      ]);
      const operations = operationIdsOf(
        transfer,
        refunds.map((r) => r.id),
        disputes.map((d) => d.id),
      );
      const [ledgerEntries, webhookAttempts] = await Promise.all([
        ledgerEntriesOf(db, operations),
        attemptsOfEvents(
          db,
          events.map((e) => e.seq),
        ),
      ]);
      return { transfer, refunds, disputes, ledgerEntries, events, webhookAttempts };
    },
  };
}
