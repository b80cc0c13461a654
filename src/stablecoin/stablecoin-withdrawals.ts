// Withdrawals to external addresses as a service: the quote, the withdrawal and the default address
// the routes call, and the job's round that sends, confirms and ends them.
import type { FastifyBaseLogger } from 'fastify';
import type { AccountLimits } from '../compliance/limits/limits-service.js';
import type { Withdrawal } from './withdrawal.js';
import { saveWithdrawalAddress, withdrawalAddressOf } from './withdrawal-address.js';
import { processWithdrawals } from './withdrawal-processing.js';
import { quoteWithdrawal, withdraw, type WithdrawalDeps, type WithdrawalQuote, type WithdrawInput } from './withdrawal-service.js';

export type StablecoinWithdrawalsDeps = WithdrawalDeps & { limits: AccountLimits };

export interface StablecoinWithdrawals {
  quote(input: Parameters<typeof quoteWithdrawal>[1]): Promise<WithdrawalQuote>;
  withdraw(input: WithdrawInput): Promise<Withdrawal>;
  /** Saves the account's default address (checked and screened as a withdrawal's); answers it checksummed. */
  saveAddress(input: { accountId: number; address: string }): Promise<string>;
  addressOf(accountId: number): Promise<string | null>;
  /** One round of the job: at most `limit` withdrawals per step; returns how many it handled. */
  process(limit: number, log?: Pick<FastifyBaseLogger, 'error'>): Promise<number>;
}

export function createStablecoinWithdrawals(deps: StablecoinWithdrawalsDeps): StablecoinWithdrawals {
  return {
    quote: (input) => quoteWithdrawal(deps, input),
    withdraw: (input) => withdraw(deps, input),
    saveAddress: (input) => saveWithdrawalAddress(deps, input),
    addressOf: (accountId) => withdrawalAddressOf(deps, accountId),
    process: (limit, log) => processWithdrawals(deps, limit, log),
  };
}
