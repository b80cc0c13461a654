// Ways to fund a stablecoin balance, as a service: the account's deposit address, funding links
// (created by the API, opened and, in sandbox mode, completed on their page) and the sandbox faucet.
import { depositAddressFor, type DepositAddress } from './deposit-address.js';
import {
  completeSandboxFundingLink,
  createFundingLink,
  inspectFundingLink,
  type FundingCompletion,
  type FundingLink,
  type FundingLinkState,
} from './funding-links-service.js';
import { canMintTestTokens, mintTestTokens } from './sandbox-mint.js';

export type StablecoinFundingDeps = Parameters<typeof createFundingLink>[0] &
  Parameters<typeof completeSandboxFundingLink>[0] &
  Parameters<typeof depositAddressFor>[0];

export interface StablecoinFunding {
  depositAddress(input: { accountId: number; chain: string | undefined }): Promise<DepositAddress>;
  createLink(input: { accountId: number; amount: number; currency: string }): Promise<FundingLink>;
  inspectLink(input: { token: string }): Promise<FundingLinkState>;
  completeSandboxLink(input: { token: string; outcome: string }): Promise<FundingCompletion>;
  /** Whether test tokens can be minted here (the embedded chain only). */
  canMint(): boolean;
  mint(input: Parameters<typeof mintTestTokens>[1]): ReturnType<typeof mintTestTokens>;
}

export function createStablecoinFunding(deps: StablecoinFundingDeps): StablecoinFunding {
  return {
    depositAddress: (input) => depositAddressFor(deps, input),
    createLink: (input) => createFundingLink(deps, input),
    inspectLink: (input) => inspectFundingLink(deps, input),
    completeSandboxLink: (input) => completeSandboxFundingLink(deps, input),
    canMint: () => canMintTestTokens(deps),
    mint: (input) => mintTestTokens(deps, input),
  };
}
