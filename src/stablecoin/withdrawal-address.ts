// The user's default withdrawal address (DESIGN §6): set explicitly with PUT
// /stablecoin/withdrawal-address, or by the first successful withdrawal when none is saved; used by
// withdrawals that name no address. Always stored and answered in EIP-55 checksummed form.
import type { Deps } from '../deps.js';
import { parsePolygonAddress } from './polygon-address.js';
import { findWithdrawalAddress, upsertWithdrawalAddress } from './withdrawal-address-repository.js';

export async function saveWithdrawalAddress(deps: Pick<Deps, 'db' | 'clock'>, input: { accountId: number; address: string }): Promise<string> {
  const address = parsePolygonAddress(input.address);
  await upsertWithdrawalAddress(deps.db, { accountId: input.accountId, address, at: deps.clock.now() });
  return address;
}

export async function withdrawalAddressOf(deps: Pick<Deps, 'db'>, accountId: number): Promise<string | null> {
  return findWithdrawalAddress(deps.db, accountId);
}
