// The custody check's cold side (decisions 0019, 0024 and 0025): how much of what lies at the
// operator's cold addresses is peerpay's custody. Per token:
//
// - Each cold address is owed what peerpay sent it (signed, not reverted), plus what other cold
//   addresses sent it, less what it sent to peerpay's own addresses (the hot wallet, a deposit
//   address) or to other cold addresses (cold-outflows.ts reads those from the chain). It counts
//   for that, but never more than it holds at the pinned block.
// - All cold addresses together count for at most what peerpay sent them less what came back to
//   its own addresses: tokens of the operator's own moved between cold addresses never count.
//
// So a transfer signed and not yet mined counts once (still in the hot wallet, not yet at the cold
// address); tokens sent back to the hot wallet count once, there, even once the operator tops the
// cold address up again; tokens moved from an old cold address to the one now configured keep
// counting; and the operator's own tokens never count. Tokens moved from a cold address anywhere
// else are no longer at an address peerpay knows: if the books then promise users more than the
// chain shows, the check reports it, which is its purpose.
import { sql } from 'kysely';
import { getAddress, type Address } from 'viem';
import type { Db } from '../db/database.js';
import { TOKENS, type Token } from '../money/assets.js';
import { coldOutflows, type ColdOutflow } from './cold-outflows.js';
import { holdingsAt } from './token-holdings.js';
import type { ChainConnection } from '../adapters/chain/connect-chain.js';
import type { Config } from '../config.js';
import type { Clock } from '../platform/clock.js';

/** A bound on one check: cold addresses ever used (one per COLD_WALLET_ADDRESS configured). */
const MAX_COLD_ADDRESSES = 1_000;

type ColdCustodyDeps = { db: Db; chain: ChainConnection; clock: Clock; config: Config };

export interface ColdSend {
  token: Token;
  address: Address;
  sentMinor: bigint;
}

/**
 * Per token, what the cold addresses hold at `blockNumber` that is peerpay's custody. The cold
 * addresses are read after the block is pinned, so one first used later has received nothing by it.
 */
export async function coldCustodyMinor(
  deps: ColdCustodyDeps,
  input: { ownAddresses: readonly Address[]; blockNumber: bigint },
): Promise<Map<Token, bigint>> {
  const sends = await coldSends(deps.db);
  const configured = deps.config.treasury.coldAddress;
  const colds = new Set([...sends.map((s) => s.address), ...(configured ? [getAddress(configured)] : [])]);
  const outflows = await coldOutflows(deps, { coldAddresses: [...colds], pinnedBlock: input.blockNumber });
  const own = new Set(input.ownAddresses.map((a) => getAddress(a)));
  const custody = new Map<Token, bigint>();
  for (const token of TOKENS) {
    custody.set(
      token,
      await tokenCustody(deps, {
        token,
        sends: sends.filter((s) => s.token === token),
        outflows: outflows.filter((o) => o.token === token),
        own,
        colds,
        blockNumber: input.blockNumber,
      }),
    );
  }
  return custody;
}

async function tokenCustody(deps: ColdCustodyDeps, input: ColdMovements & { token: Token; blockNumber: bigint }): Promise<bigint> {
  const entitlements = coldEntitlements(input);
  const held = new Map<Address, bigint>();
  for (const [address, owed] of entitlements.owed) {
    if (owed > 0n) held.set(address, await holdingsAt(deps, { token: input.token, holders: [address], blockNumber: input.blockNumber }));
  }
  return countedColdCustody(entitlements, held);
}

/** One token's movements at the cold addresses, as the check knows them. */
export interface ColdMovements {
  sends: readonly ColdSend[];
  outflows: readonly ColdOutflow[];
  /** peerpay's own addresses: the hot wallet and the deposit addresses. */
  own: ReadonlySet<Address>;
  colds: ReadonlySet<Address>;
}

export interface ColdEntitlements {
  /** Per cold address: what peerpay's custody there would be had nothing left it but to known places. */
  owed: ReadonlyMap<Address, bigint>;
  /** What peerpay sent to all cold addresses less what came back to its own addresses. */
  ceiling: bigint;
}

/** What each cold address is owed, and the ceiling on them all (the rules at the top of this file). */
export function coldEntitlements(input: ColdMovements): ColdEntitlements {
  const owed = new Map<Address, bigint>();
  const change = (address: Address, by: bigint) => owed.set(address, (owed.get(address) ?? 0n) + by);
  let ceiling = 0n;
  for (const send of input.sends) {
    change(send.address, send.sentMinor);
    ceiling += send.sentMinor;
  }
  for (const o of input.outflows) {
    if (input.own.has(o.to)) {
      change(o.from, -o.amountMinor);
      ceiling -= o.amountMinor;
    } else if (input.colds.has(o.to)) {
      change(o.from, -o.amountMinor);
      change(o.to, o.amountMinor);
    }
  }
  return { owed, ceiling };
}

/** Each cold address for what it is owed but at most what it holds (`held`), all of them at most the ceiling. */
export function countedColdCustody(entitlements: ColdEntitlements, held: ReadonlyMap<Address, bigint>): bigint {
  let total = 0n;
  for (const [address, owed] of entitlements.owed) {
    if (owed <= 0n) continue;
    const has = held.get(address) ?? 0n;
    total += has < owed ? has : owed;
  }
  const ceiling = entitlements.ceiling > 0n ? entitlements.ceiling : 0n;
  return total < ceiling ? total : ceiling;
}

/** Per token and cold address, what peerpay sent there (signed, not reverted). */
async function coldSends(db: Db): Promise<ColdSend[]> {
  const { rows } = await sql<{ token: Token; to_address: string; sent: string }>`
    select c.token, c.to_address, sum(c.amount)::text as sent from cold_transfers c
      join hot_wallet_outbox o on o.purpose = 'cold' and o.reference_id = c.id
     where c.status in ('open', 'confirmed') and o.status <> 'reverted'
     group by c.token, c.to_address
     order by c.token, c.to_address
     limit ${MAX_COLD_ADDRESSES * TOKENS.length + 1}`.execute(db);
  if (rows.length > MAX_COLD_ADDRESSES * TOKENS.length)
    throw new Error(`custody check: more than ${MAX_COLD_ADDRESSES} cold addresses; the check needs another way to read them`);
  return rows.map((r) => ({ token: r.token, address: getAddress(r.to_address), sentMinor: BigInt(r.sent) }));
}
