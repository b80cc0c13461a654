// The user's default withdrawal address (DESIGN §6): set explicitly with PUT
// /stablecoin/withdrawal-address, or by the first successful withdrawal when none is saved; used by
// withdrawals that name no address. Always stored and answered in EIP-55 checksummed form. An
// address a withdrawal would refuse (peerpay's hot wallet, a token contract, any deposit address) is
// refused when saved, with the withdrawal's own check and code (400 invalid_address). A sanctioned
// address is refused with 403 destination_sanctioned and freezes the account, as a withdrawal to it
// would (DESIGN §17).
import { findWithdrawalAddress, upsertWithdrawalAddress } from './withdrawal-address-repository.js';
import { checkedDestination, type DestinationDeps } from './withdrawal-destination.js';
import type { SanctionsControls } from '../compliance/sanctions/sanctions-controls.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';

export async function saveWithdrawalAddress(
  deps: DestinationDeps & { clock: Clock; sanctionsControls: SanctionsControls },
  input: { accountId: number; address: string },
): Promise<string> {
  const address = await checkedDestination(deps, input.address, 'address');
  await deps.sanctionsControls.refuseListedDestination({ accountId: input.accountId, address, use: 'withdrawal_address' });
  await upsertWithdrawalAddress(deps.db, { accountId: input.accountId, address, at: deps.clock.now() });
  return address;
}

export async function withdrawalAddressOf(deps: { db: Db }, accountId: number): Promise<string | null> {
  return findWithdrawalAddress(deps.db, accountId);
}
