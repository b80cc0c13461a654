// The embedded chain of sandbox mode: anvil with its state in DATA_DIR, the sandbox USDC and EURC at
// their fixed addresses, the stand-in sanctions oracle at its own, and gas for the token owner so that it can mint at once. The caller passes
// the owner's address (derived from the master seed); the owner's key never comes here.
import { createTestClient, http, publicActions, type Address } from 'viem';
import type { Token } from '../../money/assets.js';
import { startAnvil, type AnvilExit } from './anvil-process.js';
import { SANDBOX_TOKENS, ensureSandboxTokens } from './sandbox-tokens.js';
import { ensureSandboxSanctionsOracle } from './sandbox-sanctions-oracle.js';
import { chainFor } from './viem-chain.js';

export const SANDBOX_CHAIN_ID = 137;

/** Minting costs well under 0.001 POL at anvil's prices; topping up below 1 keeps the owner able to mint. */
const OWNER_GAS_FLOOR_WEI = 10n ** 18n;
const OWNER_GAS_GRANT_WEI = 1000n * 10n ** 18n;

export interface EmbeddedChainOptions {
  dataDir: string;
  /** Owner and minter of both sandbox tokens. */
  tokenOwner: Address;
  startTimeoutMs?: number;
  stopTimeoutMs?: number;
  stateIntervalSeconds?: number;
}

export interface EmbeddedChain {
  readonly rpcUrl: string;
  readonly chainId: typeof SANDBOX_CHAIN_ID;
  readonly tokens: Readonly<Record<Token, Address>>;
  /** The tokens initialised by this start; empty when the chain came back from DATA_DIR. */
  readonly initialisedTokens: readonly Token[];
  /** Settles if anvil exits, also unexpectedly; /health can report a dead chain with isRunning(). */
  readonly exited: Promise<AnvilExit>;
  isRunning(): boolean;
  stop(): Promise<void>;
}

export async function startEmbeddedChain(options: EmbeddedChainOptions): Promise<EmbeddedChain> {
  const anvil = await startAnvil({
    dataDir: options.dataDir,
    chainId: SANDBOX_CHAIN_ID,
    ...(options.startTimeoutMs !== undefined ? { startTimeoutMs: options.startTimeoutMs } : {}),
    ...(options.stopTimeoutMs !== undefined ? { stopTimeoutMs: options.stopTimeoutMs } : {}),
    ...(options.stateIntervalSeconds !== undefined ? { stateIntervalSeconds: options.stateIntervalSeconds } : {}),
  });
  try {
    const initialisedTokens = await ensureSandboxTokens({ rpcUrl: anvil.rpcUrl, chainId: SANDBOX_CHAIN_ID, owner: options.tokenOwner });
    await ensureGas({ rpcUrl: anvil.rpcUrl, address: options.tokenOwner });
    // After the tokens: their initialisation is block 1, which the installation identity records.
    await ensureSandboxSanctionsOracle({ rpcUrl: anvil.rpcUrl, chainId: SANDBOX_CHAIN_ID });
    return {
      rpcUrl: anvil.rpcUrl,
      chainId: SANDBOX_CHAIN_ID,
      tokens: Object.freeze({ USDC: SANDBOX_TOKENS.USDC.address, EURC: SANDBOX_TOKENS.EURC.address }),
      initialisedTokens,
      exited: anvil.exited,
      isRunning: () => anvil.isRunning(),
      stop: () => anvil.stop(),
    };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}

async function ensureGas(options: { rpcUrl: string; address: Address }): Promise<void> {
  const chain = chainFor({ chainId: SANDBOX_CHAIN_ID, rpcUrl: options.rpcUrl });
  const client = createTestClient({ chain, transport: http(options.rpcUrl), mode: 'anvil' }).extend(publicActions);
  if ((await client.getBalance({ address: options.address })) < OWNER_GAS_FLOOR_WEI) {
    await client.setBalance({ address: options.address, value: OWNER_GAS_GRANT_WEI });
  }
}
