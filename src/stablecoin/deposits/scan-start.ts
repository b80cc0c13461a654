// Where the deposit watcher of a fresh database starts reading the chain. No deposit address exists
// before the first account, so nothing older needs reading: the watcher starts at the last block
// mined an hour (a margin for clock differences between the database and the chain) before the
// first account was created, found by binary search over block timestamps. With no account yet it
// starts at the head read before that check: an account created afterwards can only receive
// tokens in later blocks.
import { assert } from '../../platform/errors.js';
import { firstAccountCreatedAt } from './deposits-repository.js';
import type { ChainConnection } from '../../adapters/chain/connect-chain.js';
import type { Db } from '../../db/database.js';

const CLOCK_MARGIN_SECONDS = 3600n;
/** A binary search over at most 2^64 blocks takes at most 64 steps. */
const MAX_SEARCH_STEPS = 64;

export async function firstBlockToScan(deps: { db: Db; chain: ChainConnection }, input: { head: bigint }): Promise<bigint> {
  const firstAccount = await firstAccountCreatedAt(deps.db);
  if (firstAccount === null) return input.head;
  const before = BigInt(Math.floor(firstAccount.getTime() / 1000)) - CLOCK_MARGIN_SECONDS;
  // The largest block in [0, head] mined strictly before `before`, or 0 when there is none.
  let low = 0n;
  let high = input.head;
  for (let step = 0; low < high; step++) {
    assert(step < MAX_SEARCH_STEPS, 'the start block search ends');
    const middle = (low + high + 1n) / 2n;
    const block = await deps.chain.chain.getBlock(middle);
    if (!block) throw new Error(`the node has no block ${middle} though its head is ${input.head}`);
    if (block.timestamp < before) low = middle;
    else high = middle - 1n;
  }
  return low;
}
