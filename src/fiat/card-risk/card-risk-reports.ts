// The operator's reports of card risk (DESIGN §16): disputes, refunds, and losses per currency.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { formatMinor } from '../../money/amount.js';
import { FIAT_CURRENCIES } from '../../money/assets.js';
import { presentDispute, presentRefund } from './card-risk-views.js';
import { listDisputes, type Dispute } from './disputes-repository.js';
import { listRefunds } from './refunds-repository.js';

const REPORT_LIMIT = 500;

export function createCardRiskReports(deps: { db: Db }) {
  return {
    async disputes(status?: Dispute['status']) {
      return (await listDisputes(deps.db, { status, limit: REPORT_LIMIT })).map(presentDispute);
    },
    async refunds() {
      return (await listRefunds(deps.db, { limit: REPORT_LIMIT })).map(presentRefund);
    },
    /** Per currency: processors' dispute fees, the platform's fees given back (net of those returned), debts written off. */
    async losses() {
      const rows = await sql<{ asset: string; code: string; total: string }>`
        select asset, code, sum(amount)::text as total from ledger_transfers
         where code in ('dispute_fee', 'refund_fee', 'dispute_fee_given_back', 'refund_fee_undone', 'dispute_fee_returned', 'debt_write_off')
         group by asset, code`.execute(deps.db);
      const sum = (asset: string, codes: string[]) =>
        rows.rows.filter((r) => r.asset === asset && codes.includes(r.code)).reduce((total, r) => total + BigInt(r.total), 0n);
      return FIAT_CURRENCIES.map((currency) => {
        const disputeFees = sum(currency, ['dispute_fee']);
        const feesGivenBack =
          sum(currency, ['refund_fee', 'dispute_fee_given_back']) - sum(currency, ['refund_fee_undone', 'dispute_fee_returned']);
        const writtenOff = sum(currency, ['debt_write_off']);
        return {
          currency,
          disputeFees: formatMinor(disputeFees, currency),
          feesGivenBack: formatMinor(feesGivenBack, currency),
          writtenOff: formatMinor(writtenOff, currency),
          total: formatMinor(disputeFees + feesGivenBack + writtenOff, currency),
        };
      });
    },
  };
}
