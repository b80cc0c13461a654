// How x402 revenue enters the ledger. Two ways to pay, two operations, each one posted transfer:
//
// - On chain: the payer's USDC arrived at payTo (the hot wallet) by transferWithAuthorization, so
//   peerpay holds more USDC on chain than before. chain_custody mirrors those holdings (it goes
//   negative by what the chain holds for peerpay; deposits debit it too), so the revenue is
//   chain_custody → x402_revenue: custody grows by exactly the price and so does revenue, and every
//   asset's balances still sum to zero.
// - From a balance: the caller's available USDC pays x402_revenue; no token moves on chain.
import { applyOperation, type Trx } from '../ledger/ledger.js';
import { platformAccount, userAvailable } from '../ledger/ledger-accounts.js';
import { assert } from '../platform/errors.js';
import { x402OperationId } from './x402-reference.js';

export async function recordChainRevenue(trx: Trx, payment: { id: string; amountMinor: bigint }): Promise<void> {
  assert(payment.amountMinor > 0n, 'an x402 payment is positive');
  const applied = await applyOperation(trx, {
    operationId: x402OperationId(payment.id),
    transfers: [
      { type: 'posted', debit: platformAccount('chain_custody', 'USDC'), credit: platformAccount('x402_revenue', 'USDC'), amountMinor: payment.amountMinor, code: 'x402_chain_payment' },
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
      { type: 'posted', debit: userAvailable(payment.accountId, 'USDC'), credit: platformAccount('x402_revenue', 'USDC'), amountMinor: payment.amountMinor, code: 'x402_balance_payment' },
    ],
  });
  assert(applied.length === 1 && applied[0]!.amountMinor === payment.amountMinor, 'the ledger charged exactly the price');
}
