// The sandbox's own sanctions list: the stand-in oracle deployed on the embedded chain (DESIGN §17),
// which a sandbox user may change to see a refused withdrawal, a blocked deposit and the freeze
// they lead to. It exists only when screening asks that stand-in.
import type { Address } from 'viem';
import { SANDBOX_SANCTIONS_ORACLE, setSandboxSanctioned } from '../../adapters/chain/sandbox-sanctions-oracle.js';
import type { ChainConnection } from '../../adapters/chain/connect-chain.js';
import type { SanctionsScreening } from './sanctions-screening.js';

export interface SandboxSanctions {
  /** Lists or unlists `address` on the stand-in; this process's cached answer for it goes too. */
  set(address: Address, sanctioned: boolean): Promise<void>;
}

export interface SandboxSanctionsDeps {
  chain: Pick<ChainConnection, 'embedded' | 'rpcUrl' | 'chainId'>;
  screening: Pick<SanctionsScreening, 'oracleAddress' | 'forget'>;
}

/** Null unless screening asks the stand-in on the embedded chain (no SANCTIONS_ORACLE_ADDRESS elsewhere). */
export function createSandboxSanctions({ chain, screening }: SandboxSanctionsDeps): SandboxSanctions | null {
  if (!chain.embedded || screening.oracleAddress !== SANDBOX_SANCTIONS_ORACLE) return null;
  return {
    async set(address, sanctioned) {
      await setSandboxSanctioned({ rpcUrl: chain.rpcUrl, chainId: chain.chainId, address, sanctioned });
      // So that the next screening sees the change.
      screening.forget(address);
    },
  };
}
