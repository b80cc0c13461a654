// The sandbox's stand-in sanctions oracle (contracts/SanctionsOracle.sol) on the embedded chain: its
// committed runtime bytecode placed at a fixed address with anvil_setCode (no transaction, so a
// fresh chain's blocks, and with them the installation identity, are what they were before), and
// the one write the sandbox offers, setSanctioned, sent as the contract's constant owner, whom the
// embedded chain impersonates (nobody holds that key).
import { createPublicClient, createTestClient, createWalletClient, http, type Address } from 'viem';
import artifact from '../../../contracts/artifacts/SanctionsOracle.json' with { type: 'json' };
import { sanctionsOracleAbi } from './sanctions-oracle-abi.js';
import { chainFor } from './viem-chain.js';

/** The last 20 bytes of keccak256("peerpay sandbox sanctions oracle"). */
export const SANDBOX_SANCTIONS_ORACLE: Address = '0x4138601B68f4993c7F2B29c69C0F403969013548';
/** The contract's OWNER constant: the last 20 bytes of keccak256("peerpay sandbox sanctions oracle owner"). */
export const SANDBOX_SANCTIONS_ORACLE_OWNER: Address = '0x9F92C44ae6814582595c3B39c94AC03b382533Be';

export const SANCTIONS_ORACLE_RUNTIME_BYTECODE = artifact.deployedBytecode as `0x${string}`;

const OWNER_GAS_WEI = 10n ** 18n;

export class SandboxOracleError extends Error {
  override name = 'SandboxOracleError';
}

interface ChainAt {
  rpcUrl: string;
  chainId: number;
}

/**
 * Places the stand-in oracle unless it is there; returns whether it placed it now. Refuses other code
 * at its address (a chain in DATA_DIR made by a build whose oracle differs) rather than replacing a
 * list that earlier runs wrote.
 */
export async function ensureSandboxSanctionsOracle(options: ChainAt): Promise<boolean> {
  const chain = chainFor(options);
  const publicClient = createPublicClient({ chain, transport: http(options.rpcUrl) });
  const code = await publicClient.getCode({ address: SANDBOX_SANCTIONS_ORACLE });
  if (code === undefined || code === '0x') {
    await createTestClient({ chain, transport: http(options.rpcUrl), mode: 'anvil' }).setCode({
      address: SANDBOX_SANCTIONS_ORACLE,
      bytecode: SANCTIONS_ORACLE_RUNTIME_BYTECODE,
    });
    return true;
  }
  if (code.toLowerCase() !== SANCTIONS_ORACLE_RUNTIME_BYTECODE.toLowerCase()) {
    throw new SandboxOracleError(
      `the code at the sandbox sanctions oracle ${SANDBOX_SANCTIONS_ORACLE} is not this release's SanctionsOracle; the chain in ` +
        'DATA_DIR was made by another build. Remove DATA_DIR/chain/anvil-state.json to start a fresh sandbox chain.',
    );
  }
  return false;
}

/**
 * Lists or unlists `address` on the stand-in oracle and waits until the change is mined. The owner
 * stays impersonated afterwards: concurrent calls would otherwise stop each other's impersonation
 * halfway, and on the embedded chain nothing else sends as that address.
 */
export async function setSandboxSanctioned(options: ChainAt & { address: Address; sanctioned: boolean }): Promise<void> {
  const chain = chainFor(options);
  const transport = http(options.rpcUrl);
  const publicClient = createPublicClient({ chain, transport });
  const testClient = createTestClient({ chain, transport, mode: 'anvil' });
  if ((await publicClient.getBalance({ address: SANDBOX_SANCTIONS_ORACLE_OWNER })) < OWNER_GAS_WEI / 10n) {
    await testClient.setBalance({ address: SANDBOX_SANCTIONS_ORACLE_OWNER, value: OWNER_GAS_WEI });
  }
  await testClient.impersonateAccount({ address: SANDBOX_SANCTIONS_ORACLE_OWNER });
  const hash = await createWalletClient({ chain, transport }).writeContract({
    address: SANDBOX_SANCTIONS_ORACLE,
    abi: sanctionsOracleAbi,
    account: SANDBOX_SANCTIONS_ORACLE_OWNER,
    functionName: 'setSanctioned',
    args: [options.address, options.sanctioned],
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: 10_000 });
  if (receipt.status !== 'success') throw new SandboxOracleError(`setSanctioned reverted (${hash})`);
}
