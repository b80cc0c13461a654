// Places the sandbox USDC and EURC on the embedded chain at fixed addresses and initialises them.
// anvil_setCode puts the committed runtime bytecode at each address (no constructor runs, so the
// same addresses hold on every fresh sandbox chain), then one initialize() transaction writes the
// token's name, symbol, decimals and owner. On a chain loaded from DATA_DIR the tokens are already
// there and nothing is written.
import { createPublicClient, createTestClient, createWalletClient, getAddress, http, type Address, type PublicClient } from 'viem';
import artifact from '../../../contracts/artifacts/SandboxToken.json' with { type: 'json' };
import type { Token } from '../../money/assets.js';
import { fullTokenAbi } from './token-abi.js';
import { chainFor } from './viem-chain.js';

export interface SandboxTokenSpec {
  address: Address;
  /** Also the EIP-712 domain name, as on Circle's contracts. */
  name: string;
  symbol: Token;
  decimals: number;
}

export const SANDBOX_TOKENS: Readonly<Record<Token, SandboxTokenSpec>> = Object.freeze({
  // Native USDC on Polygon PoS, so that clients which accept only known assets work unchanged.
  USDC: { address: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359', name: 'USD Coin', symbol: 'USDC', decimals: 6 },
  // A fixed address of peerpay's own: the last 20 bytes of keccak256("peerpay sandbox EURC").
  EURC: { address: '0x0Ee43635cE3b82E98C2f7bFcbc8F86CC9dFc470D', name: 'EURC', symbol: 'EURC', decimals: 6 },
});

/** Sends the one initialize() transaction per token; keccak256("peerpay sandbox token deployer"). */
export const SANDBOX_TOKEN_DEPLOYER: Address = '0xB0577C67062F6c3c6AfccAC16Cb527BAf85F973f';

export const SANDBOX_TOKEN_RUNTIME_BYTECODE = artifact.deployedBytecode as `0x${string}`;

const DEPLOYER_GAS_WEI = 10n ** 18n;

export class SandboxTokenError extends Error {
  override name = 'SandboxTokenError';
}

/**
 * Makes sure both tokens exist and belong to `owner`; returns the symbols it initialised now (none
 * on a chain loaded from DATA_DIR). Refuses a chain whose token code or owner differs, rather than
 * overwriting balances that a previous run created.
 */
export async function ensureSandboxTokens(options: { rpcUrl: string; chainId: number; owner: Address }): Promise<Token[]> {
  const chain = chainFor(options);
  const transport = http(options.rpcUrl);
  const publicClient = createPublicClient({ chain, transport });
  const testClient = createTestClient({ chain, transport, mode: 'anvil' });
  const walletClient = createWalletClient({ chain, transport });
  const initialised: Token[] = [];

  for (const spec of Object.values(SANDBOX_TOKENS)) {
    const code = await publicClient.getCode({ address: spec.address });
    if (code === undefined || code === '0x') {
      await testClient.setCode({ address: spec.address, bytecode: SANDBOX_TOKEN_RUNTIME_BYTECODE });
    } else if (code.toLowerCase() !== SANDBOX_TOKEN_RUNTIME_BYTECODE.toLowerCase()) {
      throw new SandboxTokenError(
        `the code at ${spec.symbol} ${spec.address} is not this release's SandboxToken; the chain in DATA_DIR ` +
          'was made by another build. Remove DATA_DIR/anvil-state.json to start a fresh sandbox chain.',
      );
    }
    const read = { address: spec.address, abi: fullTokenAbi } as const;
    // Checked separately from the code: a crash between setCode and initialize leaves code without
    // configuration, and the next start finishes the job.
    if (!(await publicClient.readContract({ ...read, functionName: 'initialized' }))) {
      await testClient.setBalance({ address: SANDBOX_TOKEN_DEPLOYER, value: DEPLOYER_GAS_WEI });
      await testClient.impersonateAccount({ address: SANDBOX_TOKEN_DEPLOYER });
      try {
        const hash = await walletClient.writeContract({
          ...read,
          account: SANDBOX_TOKEN_DEPLOYER,
          functionName: 'initialize',
          args: [spec.name, spec.symbol, spec.decimals, options.owner],
        });
        const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: 10_000 });
        if (receipt.status !== 'success') throw new SandboxTokenError(`initialising ${spec.symbol} reverted (${hash})`);
      } finally {
        await testClient.stopImpersonatingAccount({ address: SANDBOX_TOKEN_DEPLOYER });
      }
      initialised.push(spec.symbol);
    }
    await checkToken(publicClient, spec, options.owner);
  }
  return initialised;
}

async function checkToken(publicClient: PublicClient, spec: SandboxTokenSpec, owner: Address): Promise<void> {
  const read = { address: spec.address, abi: fullTokenAbi } as const;
  const [name, symbol, decimals, actualOwner] = await Promise.all([
    publicClient.readContract({ ...read, functionName: 'name' }),
    publicClient.readContract({ ...read, functionName: 'symbol' }),
    publicClient.readContract({ ...read, functionName: 'decimals' }),
    publicClient.readContract({ ...read, functionName: 'owner' }),
  ]);
  if (name !== spec.name || symbol !== spec.symbol || decimals !== spec.decimals) {
    throw new SandboxTokenError(
      `${spec.address} is configured as ${name}/${symbol}/${decimals}, not ${spec.name}/${spec.symbol}/${spec.decimals}`,
    );
  }
  if (getAddress(actualOwner) !== getAddress(owner)) {
    throw new SandboxTokenError(
      `sandbox ${spec.symbol} belongs to ${actualOwner}, not to this peerpay's token owner ${owner}: ` +
        'the chain in DATA_DIR was made with another master seed',
    );
  }
}
