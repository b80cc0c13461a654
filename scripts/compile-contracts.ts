// Compiles contracts/SandboxToken.sol with the pinned solc npm package and writes the committed
// artifact contracts/artifacts/SandboxToken.json (npm run compile:contracts). The service never
// compiles at run time; test/chain/contract-artifact.test.ts recompiles and compares, so the
// committed bytecode is always what the committed source produces.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import solc from 'solc';

const CONTRACTS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'contracts');
const SOURCE_NAME = 'SandboxToken.sol';
const CONTRACT_NAME = 'SandboxToken';
export const SANDBOX_TOKEN_ARTIFACT_PATH = path.join(CONTRACTS_DIR, 'artifacts', 'SandboxToken.json');

// Pinned so that the bytecode is reproducible. 'shanghai' runs on anvil and on Polygon PoS alike.
// No metadata is appended: the bytecode then depends on the code alone, not on comments, so a
// sandbox chain kept in DATA_DIR still matches after a comment-only edit.
const SETTINGS = {
  evmVersion: 'shanghai',
  optimizer: { enabled: true, runs: 200 },
  metadata: { appendCBOR: false, bytecodeHash: 'none' },
  outputSelection: { [SOURCE_NAME]: { [CONTRACT_NAME]: ['abi', 'evm.deployedBytecode.object'] } },
} as const;

export interface ContractArtifact {
  contractName: string;
  sourceName: string;
  compilerVersion: string;
  settings: Omit<typeof SETTINGS, 'outputSelection'>;
  abi: unknown[];
  /** Runtime bytecode, the code that anvil_setCode places at the token addresses. */
  deployedBytecode: `0x${string}`;
}

interface SolcOutput {
  errors?: { severity: 'error' | 'warning' | 'info'; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: unknown[]; evm: { deployedBytecode: { object: string } } }>>;
}

export function compileSandboxToken(): ContractArtifact {
  const source = fs.readFileSync(path.join(CONTRACTS_DIR, SOURCE_NAME), 'utf8');
  const input = { language: 'Solidity', sources: { [SOURCE_NAME]: { content: source } }, settings: SETTINGS };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const problems = (output.errors ?? []).filter((entry) => entry.severity !== 'info');
  // Warnings fail the build too: the contract is small enough to keep at zero.
  if (problems.length > 0) throw new Error(problems.map((entry) => entry.formattedMessage).join('\n'));
  const compiled = output.contracts?.[SOURCE_NAME]?.[CONTRACT_NAME];
  if (!compiled) throw new Error(`solc produced no ${CONTRACT_NAME}`);
  const { outputSelection: _outputSelection, ...settings } = SETTINGS;
  return {
    contractName: CONTRACT_NAME,
    sourceName: `contracts/${SOURCE_NAME}`,
    compilerVersion: solc.version() as string,
    settings,
    abi: compiled.abi,
    deployedBytecode: `0x${compiled.evm.deployedBytecode.object}`,
  };
}

export function serializeArtifact(artifact: ContractArtifact): string {
  return JSON.stringify(artifact, null, 2) + '\n';
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const artifact = compileSandboxToken();
  fs.mkdirSync(path.dirname(SANDBOX_TOKEN_ARTIFACT_PATH), { recursive: true });
  fs.writeFileSync(SANDBOX_TOKEN_ARTIFACT_PATH, serializeArtifact(artifact));
  const sizeBytes = (artifact.deployedBytecode.length - 2) / 2;
  console.log(
    `wrote ${path.relative(process.cwd(), SANDBOX_TOKEN_ARTIFACT_PATH)} (solc ${artifact.compilerVersion}, ${sizeBytes} bytes of runtime code)`,
  );
}
