// Sweeps: tokens credited at a deposit address are moved to the hot wallet, so that withdrawals can
// be paid from it. The deposit key signs an EIP-3009 transferWithAuthorization of the address's
// whole balance to the hot wallet, and the hot wallet relays it through the outbox (the only way it
// sends anything), paying the gas: deposit addresses never hold gas. The ledger does not change on
// a sweep; the tokens stay in peerpay's custody, only at another address.
//
// One sweep per (address, token) is open at a time (a unique index). A sweep's amount is the
// balance at block B, read when the head was B both before and after the read, so it moves exactly
// the tokens that arrived up to B; once it is confirmed, every deposit to that address up to B is
// marked swept, also those the watcher credits later. A sweep that reverts, or whose signing is
// refused (the authorization expired first), ends; the next round starts a new one with a fresh
// authorization nonce if deposits remain unswept.
import { getAddress, isAddressEqual, type Address, type Hash } from 'viem';
import { sendThroughCircle } from '../outbox/circle-outbox.js';
import { sweepGasReady, TOP_UPS_PER_ROUND, type GasBudget } from './eoa-gas.js';
import { ChainRevertError } from '../../adapters/chain/chain-adapter.js';
import { randomAuthorizationNonce, signTransferAuthorization } from '../../adapters/chain/transfer-authorization.js';
import type { Token } from '../../money/assets.js';
import { assert } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { findOutboxEntry, sendFromHotWallet } from '../outbox/hot-wallet-outbox.js';
import {
  finishSweep,
  insertOpenSweep,
  markCoveredDeposits,
  markDepositsSwept,
  openSweeps,
  sweepTargets,
  type Sweep,
} from './sweeps-repository.js';
import type { ChainConnection } from '../../adapters/chain/connect-chain.js';
import type { CircleWalletProvider, WalletProvider } from '../../adapters/wallet/wallet-provider.js';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../platform/clock.js';

type SweepDeps = { db: Db; chain: ChainConnection; wallets: WalletProvider; clock: Clock };

/** How long a sweep's authorization stays valid, in chain time; it is normally relayed within a second. */
const AUTHORIZATION_LIFETIME_SECONDS = 3600n;
/** Attempts at reading a balance while the head stays still. */
const BALANCE_READ_ATTEMPTS = 3;

export interface SweepRound {
  started: number;
  sent: number;
  confirmed: number;
  ended: number;
}

/** One bounded round: carries open sweeps on, marks late-credited deposits, starts and sends new sweeps. */
export async function runSweeps(deps: SweepDeps, limit: number): Promise<SweepRound> {
  const round: SweepRound = { started: 0, sent: 0, confirmed: 0, ended: 0 };
  const gas: GasBudget = { topUps: TOP_UPS_PER_ROUND };
  await advanceOpenSweeps(deps, limit, round);
  await markCoveredDeposits(deps.db, limit);
  for (const target of await sweepTargets(deps.db, limit)) {
    const sweep = await startSweep(deps, target, gas);
    if (!sweep) continue;
    round.started++;
    await sendSweep(deps, sweep, round);
  }
  return round;
}

async function advanceOpenSweeps(deps: SweepDeps, limit: number, round: SweepRound): Promise<void> {
  for (const sweep of await openSweeps(deps.db, limit)) {
    const entry = await findOutboxEntry(deps.db, { purpose: 'sweep', referenceId: sweep.id });
    if (!entry) {
      // Created but not handed to the outbox (a crash, or signing failed for a passing reason).
      await sendSweep(deps, sweep, round);
    } else if (entry.status === 'confirmed') {
      const now = deps.clock.now();
      const done = await deps.db.transaction().execute(async (trx) => {
        if (!(await finishSweep(trx, { id: sweep.id, status: 'confirmed', txHash: entry.txHash, failure: null, at: now }))) return false;
        await markDepositsSwept(trx, sweep, now);
        return true;
      });
      if (done) round.confirmed++;
    } else if (entry.status === 'reverted') {
      if (
        await finishSweep(deps.db, {
          id: sweep.id,
          status: 'reverted',
          txHash: entry.txHash,
          failure: 'the sweep transaction reverted',
          at: deps.clock.now(),
        })
      )
        round.ended++;
    }
    // 'signed' or 'broadcast': the outbox job carries it on.
  }
}

/** Reads the address's balance and records an open sweep of all of it; null when there is nothing to do now. */
async function startSweep(deps: SweepDeps, target: { accountId: number; token: Token }, gas: GasBudget): Promise<Sweep | null> {
  const address = (await sweepSource(deps, target.accountId)).address;
  const read = await balanceAtOneBlock(deps, { token: deps.chain.tokens[target.token], holder: address });
  // Zero: the credited deposits left the address already (a sweep that covered them, recorded as
  // confirmed, marks them); an unsteady head: the next round tries again.
  if (!read || read.balance === 0n) return null;
  // CIRCLE_ACCOUNT_TYPE=EOA: the wallet pays its own gas; without enough, Circle would only fail the
  // transfer. The treasury tops it up (eoa-gas.ts) and the sweep starts once the gas has arrived.
  if (
    deps.wallets.provider === 'circle' &&
    deps.wallets.circle.accountType === 'EOA' &&
    !(await sweepGasReady({ ...deps, wallets: deps.wallets }, { accountId: target.accountId, address }, gas))
  )
    return null;
  const block = await deps.chain.chain.getBlock(read.block);
  if (!block) return null;
  return insertOpenSweep(deps.db, {
    id: newId('swp'),
    accountId: target.accountId,
    address,
    token: target.token,
    amountMinor: read.balance,
    coversThroughBlock: read.block,
    authNonce: randomAuthorizationNonce(),
    // Chain time, which the token checks, not the service clock (the sandbox clock may be moved).
    validBefore: block.timestamp + AUTHORIZATION_LIFETIME_SECONDS,
    createdAt: deps.clock.now(),
  });
}

/**
 * The token balance at one block: the head is read before and after the balance and must not have
 * moved. Null when it kept moving.
 */
async function balanceAtOneBlock(
  deps: SweepDeps,
  input: { token: Address; holder: Address },
): Promise<{ balance: bigint; block: bigint } | null> {
  for (let attempt = 0; attempt < BALANCE_READ_ATTEMPTS; attempt++) {
    const before = await deps.chain.chain.getBlockNumber();
    const balance = await deps.chain.chain.getTokenBalance(input);
    const after = await deps.chain.chain.getBlockNumber();
    if (before === after) return { balance, block: after };
  }
  return null;
}

/**
 * Signs the sweep's authorization with the deposit key and hands the relay to the outbox. The
 * authorization is fixed by the sweep row (nonce, amount, validity), and signatures are
 * deterministic, so a second call signs the very same authorization; the outbox signs the relay
 * transaction once per sweep however often this runs.
 */
async function sendSweep(deps: SweepDeps, sweep: Sweep, round: SweepRound): Promise<Hash | null> {
  if (deps.wallets.provider === 'circle') return sendCircleSweep({ ...deps, wallets: deps.wallets }, sweep, round);
  const signer = deps.wallets.depositSigner(sweep.accountId);
  assert(signer.address.toLowerCase() === sweep.address.toLowerCase(), 'the deposit key of the swept address signs its sweep');
  const token = deps.chain.tokens[sweep.token];
  const hotWallet = deps.wallets.relayer;
  const authorization = await signTransferAuthorization({
    signer,
    domain: await deps.chain.chain.getTokenDomain(token),
    to: hotWallet.address,
    value: sweep.amountMinor,
    validAfter: 0n,
    validBefore: sweep.validBefore,
    nonce: sweep.authNonce,
  });
  try {
    const sent = await sendFromHotWallet(deps, {
      purpose: 'sweep',
      referenceId: sweep.id,
      sign: (nonce) => deps.chain.chain.signAuthorizedTransfer({ token, relayer: hotWallet, authorization, nonce }),
    });
    round.sent++;
    return sent.txHash;
  } catch (error) {
    // The gas estimate ran the relay and it would revert (an expired authorization, a balance that
    // is no longer there): nothing was signed or sent, and the sweep ends so that a new one can
    // start. Other errors (the node unreachable) leave it open for the next round.
    if (!(error instanceof ChainRevertError)) throw error;
    if (await finishSweep(deps.db, { id: sweep.id, status: 'failed', txHash: null, failure: error.message, at: deps.clock.now() }))
      round.ended++;
    return null;
  }
}

/**
 * With circle: the sweep is a Circle transfer of the balance from the user's wallet to the treasury
 * wallet, through the Circle outbox (keyed by the sweep's outbox entry, so never sent twice); Circle
 * pays the gas (SCA) or the wallet's own, topped up by the treasury (EOA, eoa-gas.ts). A transfer Circle refuses ends its entry reverted, and
 * advanceOpenSweeps ends the sweep; the next round starts afresh if deposits remain unswept.
 */
async function sendCircleSweep(deps: SweepDeps & { wallets: CircleWalletProvider }, sweep: Sweep, round: SweepRound): Promise<Hash | null> {
  const source = await sweepSource(deps, sweep.accountId);
  assert(source.walletId !== null && isAddressEqual(source.address, sweep.address), "the swept address is the account's Circle wallet");
  const sent = await sendThroughCircle(deps, {
    purpose: 'sweep',
    referenceId: sweep.id,
    from: { walletId: source.walletId, address: sweep.address },
    token: sweep.token,
    to: deps.wallets.hotWallet.address,
    amountMinor: sweep.amountMinor,
  });
  round.sent++;
  return sent.txHash;
}

/** The account's deposit address, and with circle its Circle wallet (as registration recorded them). */
async function sweepSource(deps: SweepDeps, accountId: number): Promise<{ address: Address; walletId: string | null }> {
  if (deps.wallets.provider === 'self') return { address: deps.wallets.walletFor(accountId).address, walletId: null };
  const row = await deps.db
    .selectFrom('accounts')
    .select(['wallet_id', 'deposit_address'])
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  assert(row.wallet_id !== null && row.deposit_address !== null, 'an account with deposits has a wallet');
  return { address: getAddress(row.deposit_address), walletId: row.wallet_id };
}
