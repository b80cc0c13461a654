// Compiles contracts/SandboxToken.sol and contracts/SanctionsOracle.sol with the pinned solc npm
// package and writes the committed artifacts contracts/artifacts/<Name>.json (npm run
// compile:contracts). The service never
// compiles at run time; test/chain/contract-artifact.test.ts recompiles and compares, so the
// committed bytecode is always what the committed source produces.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import solc from 'solc';

const CONTRACTS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'contracts');
export const SANDBOX_TOKEN_ARTIFACT_PATH = artifactPath('SandboxToken');
export const SANCTIONS_ORACLE_ARTIFACT_PATH = artifactPath('SanctionsOracle');

/** The contracts peerpay commits artifacts of; each lives in contracts/<name>.sol. */
export const CONTRACTS = ['SandboxToken', 'SanctionsOracle'] as const;
export type ContractName = (typeof CONTRACTS)[number];

function artifactPath(contractName: string): string {
  return path.join(CONTRACTS_DIR, 'artifacts', `${contractName}.json`);
}

// Pinned so that the bytecode is reproducible. 'shanghai' runs on anvil and on Polygon PoS alike.
// No metadata is appended: the bytecode then depends on the code alone, not on comments, so a
// sandbox chain kept in DATA_DIR still matches after a comment-only edit.
const SETTINGS = {
  evmVersion: 'shanghai',
  optimizer: { enabled: true, runs: 200 },
  metadata: { appendCBOR: false, bytecodeHash: 'none' },
} as const;

export interface ContractArtifact {
  contractName: string;
  sourceName: string;
  compilerVersion: string;
  settings: typeof SETTINGS;
  abi: unknown[];
  /** Runtime bytecode, the code that anvil_setCode places at the token addresses. */
  deployedBytecode: `0x${string}`;
}

interface SolcOutput {
  errors?: { severity: 'error' | 'warning' | 'info'; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: unknown[]; evm: { deployedBytecode: { object: string } } }>>;
}

export function compileSandboxToken(): ContractArtifact {
  return compileContract('SandboxToken');
}

export function compileContract(contractName: ContractName): ContractArtifact {
  const sourceName = `${contractName}.sol`;
  const source = fs.readFileSync(path.join(CONTRACTS_DIR, sourceName), 'utf8');
  const settings = { ...SETTINGS, outputSelection: { [sourceName]: { [contractName]: ['abi', 'evm.deployedBytecode.object'] } } };
  const input = { language: 'Solidity', sources: { [sourceName]: { content: source } }, settings };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const problems = (output.errors ?? []).filter((entry) => entry.severity !== 'info');
  // Warnings fail the build too: the contract is small enough to keep at zero.
  if (problems.length > 0) throw new Error(problems.map((entry) => entry.formattedMessage).join('\n'));
  const compiled = output.contracts?.[sourceName]?.[contractName];
  if (!compiled) throw new Error(`solc produced no ${contractName}`);
  return {
    contractName,
    sourceName: `contracts/${sourceName}`,
    compilerVersion: solc.version() as string,
    settings: SETTINGS,
    abi: compiled.abi,
    deployedBytecode: `0x${compiled.evm.deployedBytecode.object}`,
  };
}

export function serializeArtifact(artifact: ContractArtifact): string {
  return JSON.stringify(artifact, null, 2) + '\n';
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const contractName of CONTRACTS) {
    const artifact = compileContract(contractName);
    const target = artifactPath(contractName);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, serializeArtifact(artifact));
    const sizeBytes = (artifact.deployedBytecode.length - 2) / 2;
    console.log(`wrote ${path.relative(process.cwd(), target)} (solc ${artifact.compilerVersion}, ${sizeBytes} bytes of runtime code)`);
  }
}
