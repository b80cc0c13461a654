// The committed artifact is what the committed Solidity compiles to, with the pinned compiler, and
// the hand-written ABIs the adapter uses agree with it.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getAddress, keccak256, slice, toBytes } from 'viem';
import {
  SANCTIONS_ORACLE_ARTIFACT_PATH,
  SANDBOX_TOKEN_ARTIFACT_PATH,
  compileContract,
  compileSandboxToken,
  serializeArtifact,
} from '../../scripts/compile-contracts.js';
import { sanctionsOracleAbi } from '../../src/adapters/chain/sanctions-oracle-abi.js';
import {
  SANCTIONS_ORACLE_RUNTIME_BYTECODE,
  SANDBOX_SANCTIONS_ORACLE,
  SANDBOX_SANCTIONS_ORACLE_OWNER,
} from '../../src/adapters/chain/sandbox-sanctions-oracle.js';
import { sandboxTokenAbi, tokenAbi } from '../../src/adapters/chain/token-abi.js';
import { SANDBOX_TOKENS, SANDBOX_TOKEN_DEPLOYER, SANDBOX_TOKEN_RUNTIME_BYTECODE } from '../../src/adapters/chain/sandbox-tokens.js';
import packageJson from '../../package.json' with { type: 'json' };

const committedText = fs.readFileSync(SANDBOX_TOKEN_ARTIFACT_PATH, 'utf8');
const committed = JSON.parse(committedText) as {
  abi: AbiEntry[];
  compilerVersion: string;
  settings: { evmVersion: string };
  deployedBytecode: string;
};

interface AbiEntry {
  type: string;
  name?: string;
  inputs?: readonly { type: string; indexed?: boolean }[];
  outputs?: readonly { type: string }[];
  stateMutability?: string;
}

/** What a caller depends on: kind, name, parameter types (and which are indexed), return types. */
function signatureOf(entry: AbiEntry): string {
  const inputs = (entry.inputs ?? []).map((input) => input.type + (input.indexed ? ' indexed' : '')).join(',');
  const outputs = entry.type === 'function' ? ` returns (${(entry.outputs ?? []).map((output) => output.type).join(',')})` : '';
  return `${entry.type} ${entry.name ?? ''}(${inputs})${outputs}`;
}

const handWritten: readonly AbiEntry[] = [...tokenAbi, ...sandboxTokenAbi];

describe('SandboxToken artifact', () => {
  it('is exactly what the source compiles to (run `npm run compile:contracts` after editing contracts/)', () => {
    expect(serializeArtifact(compileSandboxToken())).toBe(committedText);
  });

  it('was built by the solc version pinned in package.json, for a pinned EVM version', () => {
    const pinned = packageJson.devDependencies.solc;
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(committed.compilerVersion.startsWith(`${pinned}+commit.`)).toBe(true);
    expect(committed.settings.evmVersion).toBe('shanghai');
    expect(fs.readFileSync('contracts/SandboxToken.sol', 'utf8')).toContain(`pragma solidity ${pinned};`);
  });

  it('is the bytecode the sandbox deployment places', () => {
    expect(SANDBOX_TOKEN_RUNTIME_BYTECODE).toBe(committed.deployedBytecode);
    // Runtime code only: no constructor, and within the EIP-170 limit of 24,576 bytes.
    expect((SANDBOX_TOKEN_RUNTIME_BYTECODE.length - 2) / 2).toBeLessThanOrEqual(24_576);
  });

  it('has every function, event and error of the ABIs the adapter calls with', () => {
    const compiled = new Set(committed.abi.map(signatureOf));
    for (const entry of handWritten) expect(compiled, signatureOf(entry)).toContain(signatureOf(entry));
  });

  it('keeps state-changing functions out of the view functions and vice versa', () => {
    const mutability = new Map(committed.abi.map((entry) => [signatureOf(entry), entry.stateMutability]));
    for (const entry of handWritten.filter((candidate) => candidate.type === 'function')) {
      const readOnly = entry.stateMutability === 'view' || entry.stateMutability === 'pure';
      expect(readOnly ? ['view', 'pure'] : ['nonpayable'], signatureOf(entry)).toContain(mutability.get(signatureOf(entry)));
    }
  });
});

describe('sandbox token addresses', () => {
  it('put USDC at native Polygon USDC and EURC and the deployer at their documented derivations', () => {
    expect(SANDBOX_TOKENS.USDC.address).toBe(getAddress('0x3c499c542cef5e3811e1192ce70d8cc03d5c3359'));
    expect(SANDBOX_TOKENS.EURC.address).toBe(getAddress(slice(keccak256(toBytes('peerpay sandbox EURC')), 12)));
    expect(SANDBOX_TOKEN_DEPLOYER).toBe(getAddress(slice(keccak256(toBytes('peerpay sandbox token deployer')), 12)));
  });
});

describe('SanctionsOracle artifact', () => {
  const oracleText = fs.readFileSync(SANCTIONS_ORACLE_ARTIFACT_PATH, 'utf8');
  const oracle = JSON.parse(oracleText) as { abi: AbiEntry[]; deployedBytecode: string };

  it('is exactly what the source compiles to (run `npm run compile:contracts` after editing contracts/)', () => {
    expect(serializeArtifact(compileContract('SanctionsOracle'))).toBe(oracleText);
    expect(SANCTIONS_ORACLE_RUNTIME_BYTECODE).toBe(oracle.deployedBytecode);
  });

  it('answers isSanctioned(address) view returns (bool), as Chainalysis’s oracle does, and has the ABI peerpay calls', () => {
    const compiled = new Map(oracle.abi.map((entry) => [signatureOf(entry), entry.stateMutability]));
    expect(compiled.get('function isSanctioned(address) returns (bool)')).toBe('view');
    for (const entry of sanctionsOracleAbi as readonly AbiEntry[]) expect(compiled.has(signatureOf(entry)), signatureOf(entry)).toBe(true);
  });

  it('sits at its documented address, owned by its documented owner', () => {
    expect(SANDBOX_SANCTIONS_ORACLE).toBe(getAddress(slice(keccak256(toBytes('peerpay sandbox sanctions oracle')), 12)));
    expect(SANDBOX_SANCTIONS_ORACLE_OWNER).toBe(getAddress(slice(keccak256(toBytes('peerpay sandbox sanctions oracle owner')), 12)));
    expect(fs.readFileSync('contracts/SanctionsOracle.sol', 'utf8')).toContain(`OWNER = ${SANDBOX_SANCTIONS_ORACLE_OWNER};`);
  });
});
