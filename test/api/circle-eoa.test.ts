// CIRCLE_ACCOUNT_TYPE=EOA (decision 0046): users' wallets pay their own gas and peerpay does not top
// them up, so a wallet holding no POL is not swept (no Circle transfer that could only fail, round
// after round); once it holds gas, its deposits are swept to the treasury as with SCA.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Address } from 'viem';
import { registerUser, type TestUser } from '../helpers/test-server.js';
import { faucet, mined } from '../helpers/stablecoin-chain.js';
import { onChainBalance } from '../helpers/withdrawals.js';
import { settleAtCircle, startCircleServer, type CircleServer } from '../helpers/circle-custody.js';

let cs: CircleServer;
let bob: TestUser;

beforeAll(async () => {
  cs = await startCircleServer({ CIRCLE_ACCOUNT_TYPE: 'EOA' });
  bob = await registerUser(cs.server);
});

afterAll(async () => {
  await cs?.close();
});

it('sweeps an EOA wallet only once it holds gas of its own', async () => {
  const { deps } = cs.server;
  await mined(cs.server, await faucet(cs.server, { address: bob.depositAddress, amount: 12, currency: 'USDC' }));
  await cs.circle.sync();
  await deps.circle.circleDepositPoll!.poll();
  expect(await deps.db.selectFrom('chain_deposits').select('id').execute()).toHaveLength(1);
  expect((await deps.depositSweeps.run(10)).started).toBe(0);
  const transfers = () => (cs.circle.transactions() as { transactionType: string }[]).filter((t) => t.transactionType === 'OUTBOUND');
  expect(transfers()).toHaveLength(0);
  await deps.chain.sandboxChain!.setNativeBalance({ address: bob.depositAddress as Address, wei: 10n ** 18n });
  expect((await deps.depositSweeps.run(10)).started).toBe(1);
  await settleAtCircle(cs);
  await deps.depositSweeps.run(10);
  expect(await deps.db.selectFrom('chain_sweeps').select('status').execute()).toEqual([{ status: 'confirmed' }]);
  expect(await onChainBalance(cs.server, deps.wallets.hotWallet.address)).toBe(12_000_000n);
  expect(transfers()).toHaveLength(1);
});
