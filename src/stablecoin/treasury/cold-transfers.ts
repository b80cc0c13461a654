// The hot wallet's ceiling (decision 0019): above HOT_WALLET_MAX_<TOKEN>, the excess goes to the
// operator's cold address (an address only: its keys are never in peerpay) through the outbox, like
// every hot wallet send. Never twice: the transfer is recorded `open` first (one open per token), its
// amount fixed, and the outbox signs once per transfer id, also across restarts; a new one is
// considered only once no transfer of the token is open, and the excess is what the hot wallet holds
// beyond what the outbox has committed, so an open transfer is counted until the chain shows it.
// Withdrawals come first: while any waits for the hot wallet, nothing goes cold. The ledger does not
// change: the tokens stay in peerpay's custody, at the cold address (the custody check counts them).
import type { Address } from 'viem';
import { ChainRevertError } from '../../adapters/chain/chain-adapter.js';
import { TOKENS, type Token } from '../../money/assets.js';
import { newId } from '../../platform/ids.js';
import { findOutboxEntry, sendTokenFromTreasury } from '../outbox/hot-wallet-outbox.js';
import { availableLiquidityMinor } from './hot-wallet-liquidity.js';
import {
  findOpenColdTransfer,
  finishColdTransfer,
  insertOpenColdTransfer,
  lockOpenColdTransfer,
  withdrawalsWaitFor,
  type ColdTransfer,
} from './cold-transfers-repository.js';
import type { ChainConnection } from '../../adapters/chain/connect-chain.js';
import type { WalletProvider } from '../../adapters/wallet/wallet-provider.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../platform/clock.js';

type ColdDeps = { db: Db; chain: ChainConnection; wallets: WalletProvider; clock: Clock; config: Config };

class NotToSend extends Error {}

/** One round for every token with a ceiling; returns how many transfers it started, sent or ended. */
export async function runColdTransfers(deps: ColdDeps): Promise<number> {
  const { coldAddress, maxMinor } = deps.config.treasury;
  if (!coldAddress) return 0;
  let handled = 0;
  for (const token of TOKENS) {
    const ceiling = maxMinor[token];
    if (ceiling === undefined) continue;
    handled += await runToken(deps, { token, ceiling, coldAddress });
  }
  return handled;
}

async function runToken(deps: ColdDeps, input: { token: Token; ceiling: bigint; coldAddress: Address }): Promise<number> {
  const open = await findOpenColdTransfer(deps.db, input.token);
  if (open) return advance(deps, open);
  if (await withdrawalsWaitFor(deps.db, input.token)) return 0;
  const excess = (await availableLiquidityMinor(deps, deps.db, input.token)) - input.ceiling;
  if (excess <= 0n) return 0;
  const created = await insertOpenColdTransfer(deps.db, {
    id: newId('cold'),
    token: input.token,
    toAddress: input.coldAddress,
    amountMinor: excess,
    at: deps.clock.now(),
  });
  if (!created) return 0;
  await send(deps, created);
  return 1;
}

async function advance(deps: ColdDeps, transfer: ColdTransfer): Promise<number> {
  const entry = await findOutboxEntry(deps.db, { purpose: 'cold', referenceId: transfer.id });
  if (!entry) return (await send(deps, transfer)) ? 1 : 0;
  if (entry.status === 'signed' || entry.status === 'broadcast') return 0;
  const ended = await finishColdTransfer(deps.db, {
    id: transfer.id,
    status: entry.status === 'confirmed' ? 'confirmed' : 'failed',
    txHash: entry.txHash,
    failure: entry.status === 'confirmed' ? null : 'the transaction reverted',
    at: deps.clock.now(),
  });
  return ended ? 1 : 0;
}

/** Hands the transfer to the outbox; a transfer that must not be sent now is ended (a later round starts afresh). */
async function send(deps: ColdDeps, transfer: ColdTransfer): Promise<boolean> {
  try {
    await sendTokenFromTreasury(deps, {
      purpose: 'cold',
      referenceId: transfer.id,
      token: transfer.token,
      to: transfer.toAddress,
      amountMinor: transfer.amountMinor,
      // Under the outbox's lock: still open, no withdrawal waits, and the hot wallet covers it (this
      // open transfer is among what is committed, so what is left must not be negative).
      precondition: async (trx) => {
        if (!(await lockOpenColdTransfer(trx, transfer.id))) throw new NotToSend('ended meanwhile');
        if (await withdrawalsWaitFor(trx, transfer.token)) throw new NotToSend('withdrawals wait for the hot wallet');
        if ((await availableLiquidityMinor(deps, trx, transfer.token)) < 0n)
          throw new NotToSend('the hot wallet no longer holds the excess');
      },
    });
    return true;
  } catch (error) {
    if (!(error instanceof NotToSend || error instanceof ChainRevertError)) throw error;
    await finishColdTransfer(deps.db, { id: transfer.id, status: 'failed', txHash: null, failure: error.message, at: deps.clock.now() });
    return false;
  }
}
