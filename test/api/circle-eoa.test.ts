// CIRCLE_ACCOUNT_TYPE=EOA (decision 0046): users' wallets pay their own gas, so before a sweep the
// treasury wallet sends one that lacks it a bounded amount of POL, as a Circle transfer through the
// outbox (purpose 'gas'); the sweep goes once the gas has arrived. A lost answer does not send it
// twice, and while the treasury itself lacks gas the sweep waits, asking Circle for nothing.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseEther, type Address } from 'viem';
import { registerUser, type TestUser } from '../helpers/test-server.js';
import { faucet, mined } from '../helpers/stablecoin-chain.js';
import { onChainBalance } from '../helpers/withdrawals.js';
import { settleAtCircle, startCircleServer, type CircleServer } from '../helpers/circle-custody.js';
import { TOP_UP_CAP_WEI } from '../../src/stablecoin/sweeps/eoa-gas.js';

let cs: CircleServer;
let bob: TestUser;

beforeAll(async () => {
  cs = await startCircleServer({ CIRCLE_ACCOUNT_TYPE: 'EOA' });
  bob = await registerUser(cs.server);
});

afterAll(async () => {
  await cs?.close();
});

type StandInTx = { transactionType: string; tokenId?: string; amounts: string[]; state: string };

it('tops up an EOA wallet with gas once, through a lost answer, and then sweeps it', async () => {
  const { deps } = cs.server;
  const sandbox = deps.chain.sandboxChain!;
  const treasury = deps.wallets.hotWallet.address;
  const outbound = () => (cs.circle.transactions() as StandInTx[]).filter((t) => t.transactionType === 'OUTBOUND');
  const gasSent = () => outbound().filter((t) => t.tokenId === cs.circle.tokenIds.native);
  const gasEntries = () =>
    deps.db.selectFrom('hot_wallet_outbox').select(['status', 'circle_token']).where('purpose', '=', 'gas').execute();

  await sandbox.setNativeBalance({ address: treasury, wei: 0n });
  await mined(cs.server, await faucet(cs.server, { address: bob.depositAddress, amount: 12, currency: 'USDC' }));
  await cs.circle.sync();
  await deps.circle.circleDepositPoll!.poll();

  // The treasury has no gas of its own (the operator's to fund): the sweep waits, Circle is not asked.
  for (let i = 0; i < 3; i++) expect((await deps.depositSweeps.run(10)).started).toBe(0);
  expect(await gasEntries()).toEqual([]);
  expect(outbound()).toHaveLength(0);

  // Funded, it sends the wallet gas; every answer to the transfer is lost, so the entry stays open.
  await sandbox.setNativeBalance({ address: treasury, wei: 10n ** 18n });
  cs.circle.faults.failNext({ method: 'POST', path: '/v1/w3s/developer/transactions/transfer', fault: 'lost', count: 3 });
  expect((await deps.depositSweeps.run(10)).started).toBe(0);
  expect((await deps.depositSweeps.run(10)).started).toBe(0);
  expect(await gasEntries()).toEqual([{ status: 'signed', circle_token: 'POL' }]);

  // The outbox asks again with the same key: Circle has the one transfer, followed to COMPLETE.
  await settleAtCircle(cs);
  expect(await gasEntries()).toEqual([{ status: 'confirmed', circle_token: 'POL' }]);
  expect(gasSent()).toHaveLength(1);
  const topUp = gasSent()[0]!;
  expect(topUp.state).toBe('COMPLETE');
  const topUpWei = parseEther(topUp.amounts[0]!);
  expect(topUpWei).toBeGreaterThan(0n);
  expect(topUpWei).toBeLessThanOrEqual(TOP_UP_CAP_WEI);
  expect(await sandbox.getNativeBalance(bob.depositAddress as Address)).toBe(topUpWei);

  expect((await deps.depositSweeps.run(10)).started).toBe(1);
  await settleAtCircle(cs);
  await deps.depositSweeps.run(10);
  expect(await deps.db.selectFrom('chain_sweeps').select('status').execute()).toEqual([{ status: 'confirmed' }]);
  expect(await onChainBalance(cs.server, treasury)).toBe(12_000_000n);
  expect(gasSent()).toHaveLength(1);
  expect(outbound()).toHaveLength(2);
  expect(await gasEntries()).toHaveLength(1);
});

it('watches the treasury wallet as a gas payer: below HOT_WALLET_MIN_GAS_WEI readiness fails and the warning names it', async () => {
  const { deps } = cs.server;
  const sandbox = deps.chain.sandboxChain!;
  const treasury = deps.wallets.hotWallet.address;
  const enough = 10n ** 18n; // HOT_WALLET_MIN_GAS_WEI's default
  await sandbox.setNativeBalance({ address: treasury, wei: enough });
  expect((await cs.server.request('GET', '/health/ready')).status).toBe(200);
  // The relayer keeps its gas; only the treasury, which pays its own in EOA mode, runs short.
  await sandbox.setNativeBalance({ address: treasury, wei: 10n ** 15n });
  try {
    const ready = await cs.server.request('GET', '/health/ready');
    expect(ready.status).toBe(503);
    expect((ready.body as { checks: { gas: { status: string } } }).checks.gas.status).toBe('fail');
    const before = cs.server.logs.length;
    await deps.treasury.watch(cs.server.app.log);
    const warned = cs.server.logs.slice(before).filter((line) => line.includes('hot wallet gas is low'));
    expect(warned).toHaveLength(1);
    expect(JSON.parse(warned[0]!).hotWallet).toBe(treasury);
    const metrics = (await cs.server.request('GET', '/metrics')).text;
    expect(metrics).toMatch(/peerpay_hot_wallet_gas_low 1/);
  } finally {
    await sandbox.setNativeBalance({ address: treasury, wei: enough });
  }
  expect((await cs.server.request('GET', '/health/ready')).status).toBe(200);
});
