// Internal stablecoin transfers as a service: the transfer (written by the group commit), its fee
// quote, and the account's side of them: balances and history.
import type { OwnerBalance } from '../ledger/ledger-queries.js';
import type { Token } from '../money/assets.js';
import { coalescedFreezes } from '../compliance/freezes/freeze-reads.js';
import { quoteTransfer, type QuoteInput, type TransferQuote } from './quote-service.js';
import { stablecoinBalances } from './stablecoin-balances.js';
import { stablecoinHistory, type HistoryPage } from './stablecoin-history.js';
import { sendStablecoinTransfer, type SendOutcome, type SendStablecoinInput } from './stablecoin-transfer-service.js';

export type StablecoinTransfersDeps = Parameters<typeof sendStablecoinTransfer>[0] & Omit<Parameters<typeof quoteTransfer>[0], 'freezes'>;

export interface StablecoinTransfers {
  send(input: SendStablecoinInput): Promise<SendOutcome>;
  quote(input: QuoteInput): Promise<TransferQuote>;
  /** What the account can spend now, per token; `read` when the caller's balances were read with its key. */
  balances(accountId: number, read?: readonly OwnerBalance[]): Promise<Record<Token, bigint>>;
  /** Transfers sent and received, withdrawals and deposits, newest first. */
  history(request: { accountId: number; limit: number; cursor: string | undefined }): Promise<HistoryPage>;
}

export function createStablecoinTransfers(deps: StablecoinTransfersDeps): StablecoinTransfers {
  const quoting = { ...deps, freezes: coalescedFreezes(deps.db) };
  return {
    send: (input) => sendStablecoinTransfer(deps, input),
    quote: (input) => quoteTransfer(quoting, input),
    balances: (accountId, read) => stablecoinBalances(deps, accountId, read),
    history: (request) => stablecoinHistory(deps, request),
  };
}
