// The sanctions oracle's ABI. `isSanctioned` is the one function Chainalysis's oracle and the
// sandbox's stand-in share (the only one peerpay calls outside sandbox mode); `setSanctioned` is
// the stand-in's own. test/chain/contract-artifact.test.ts checks both against the compiled contract.
import { parseAbi } from 'viem';

export const sanctionsOracleAbi = parseAbi([
  'function isSanctioned(address addr) view returns (bool)',
  'function setSanctioned(address account, bool sanctioned)',
]);
