// Finds the anvil executable that npm installed. Foundry publishes anvil on npm as a wrapper,
// @foundry-rs/anvil (a launcher script and a postinstall that may download), whose optional
// dependencies are per-platform packages holding the binary itself. peerpay depends on the platform
// package directly, as an optional dependency with no install script: the wrapper adds nothing we
// run, and our registry serves only its linux-amd64 sibling, so with the wrapper in package.json
// the lock file could never name all its optional dependencies and `npm ci` refused to install.
import fs from 'node:fs';
import { createRequire } from 'node:module';

const PLATFORM_PACKAGES: Record<string, string> = {
  'linux-x64': '@foundry-rs/anvil-linux-amd64',
  'linux-arm64': '@foundry-rs/anvil-linux-arm64',
  'darwin-x64': '@foundry-rs/anvil-darwin-amd64',
  'darwin-arm64': '@foundry-rs/anvil-darwin-arm64',
  'win32-x64': '@foundry-rs/anvil-win32-amd64',
};

export class AnvilBinaryError extends Error {
  override name = 'AnvilBinaryError';
  constructor(
    message: string,
    /** unsupported: no npm build for the platform; missing: not installed; not_executable: installed, cannot run. */
    readonly kind: 'unsupported' | 'missing' | 'not_executable',
  ) {
    super(message);
  }
}

export function resolveAnvilBinary(platform: string = process.platform, arch: string = process.arch): string {
  const platformPackage = PLATFORM_PACKAGES[`${platform}-${arch}`];
  if (!platformPackage) {
    throw new AnvilBinaryError(
      `anvil has no npm build for ${platform}-${arch}; run peerpay against an external node with CHAIN_RPC_URL instead`,
      'unsupported',
    );
  }
  const binaryName = platform === 'win32' ? 'anvil.exe' : 'anvil';
  let binaryPath: string;
  try {
    binaryPath = createRequire(import.meta.url).resolve(`${platformPackage}/bin/${binaryName}`);
  } catch {
    throw new AnvilBinaryError(
      `the anvil binary is not installed: it comes in the npm package ${platformPackage}. peerpay lists ` +
        'the linux-amd64 one as an optional dependency; run `npm install` without --omit=optional, ' +
        `install ${platformPackage} of the same version on this platform, or run peerpay against an external ` +
        'node with CHAIN_RPC_URL.',
      'missing',
    );
  }
  try {
    fs.accessSync(binaryPath, fs.constants.X_OK);
  } catch {
    throw new AnvilBinaryError(`${binaryPath} is not executable; reinstall ${platformPackage} with npm`, 'not_executable');
  }
  return binaryPath;
}
