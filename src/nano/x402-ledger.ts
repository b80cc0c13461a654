// How x402 revenue enters the ledger. Two ways to pay, two operations, each one posted transfer:
//
// - On chain, to the hot wallet: the payer's USDC arrived at the hot wallet by
//   transferWithAuthorization, so peerpay holds more USDC on chain than before. chain_custody
//   mirrors those holdings (it goes negative by what the chain holds for peerpay; deposits debit it
//   too), so the revenue is chain_custody → x402_revenue: custody grows by exactly the price and so
//   does revenue, and every asset's balances still sum to zero.
// - On chain, to an external PAY_TO: the USDC went to an address whose key peerpay does not hold.
//   peerpay only relayed the authorization (and paid its gas); it never held the money, so nothing
//   enters the ledger. The x402_payments row (settled, with its pay_to and transaction) is the whole
//   record. We chose this over a movement through some "external revenue" account: any account that
//   is debited for money peerpay never received either counts as custody (and the books would claim
//   tokens the chain does not show) or needs an exception in every custody sum; with no movement, the
//   ledger's chain_custody per token always equals what the hot wallet and deposit addresses hold
//   for it (books/custody-check.ts compares the two).
// - From a balance: the caller's available USDC pays x402_revenue; no token moves on chain.
import { isAddressEqual, type Address } from 'viem';
import { applyOperation } from '../ledger/ledger.js';
import type { Trx } from '../db/transaction.js';
import { platformAccount, userAvailable } from '../ledger/ledger-accounts.js';
import { assert } from '../platform/errors.js';
import { x402OperationId } from './x402-reference.js';

/** Books a settled on-chain payment: into custody when it paid the hot wallet, not at all when it paid an external PAY_TO. */
export async function recordChainRevenue(
  trx: Trx,
  payment: { id: string; amountMinor: bigint; payTo: Address; hotWallet: Address },
): Promise<void> {
  assert(payment.amountMinor > 0n, 'an x402 payment is positive');
  if (!isAddressEqual(payment.payTo, payment.hotWallet)) return;
  const applied = await applyOperation(trx, {
    operationId: x402OperationId(payment.id),
    transfers: [
      {
        type: 'posted',
        debit: platformAccount('chain_custody', 'USDC'),
        credit: platformAccount('x402_revenue', 'USDC'),
        amountMinor: payment.amountMinor,
        code: 'x402_chain_payment',
      },
    ],
  });
  assert(applied.length === 1 && applied[0]!.amountMinor === payment.amountMinor, 'the ledger recorded exactly the price');
}

/** Throws AppError('insufficient_balance') and changes nothing when the caller's USDC is short. */
export async function chargeBalance(trx: Trx, payment: { id: string; accountId: number; amountMinor: bigint }): Promise<void> {
  assert(payment.amountMinor > 0n, 'an x402 payment is positive');
  const applied = await applyOperation(trx, {
    operationId: x402OperationId(payment.id),
    transfers: [
      {
        type: 'posted',
        debit: userAvailable(payment.accountId, 'USDC'),
        credit: platformAccount('x402_revenue', 'USDC'),
        amountMinor: payment.amountMinor,
        code: 'x402_balance_payment',
      },
    ],
  });
  assert(applied.length === 1 && applied[0]!.amountMinor === payment.amountMinor, 'the ledger charged exactly the price');
}
