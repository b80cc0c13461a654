// Finds the anvil executable that npm installed. Foundry publishes anvil on npm as a wrapper,
// @foundry-rs/anvil (a launcher script and a postinstall that may download), whose optional
// dependencies are per-platform packages holding the binary itself. peerpay depends on the five
// platform packages directly, as optional dependencies with no install script (the wrapper adds
// nothing we run): npm installs the one whose `os` and `cpu` match the machine, and this module
// picks it at run time. On any other platform the embedded chain cannot run, and main.ts stops with
// one line before anything is written.
import fs from 'node:fs';
import { createRequire } from 'node:module';

/** `${process.platform}-${process.arch}` → the npm package with anvil built for it (all optional dependencies). */
export const ANVIL_PLATFORM_PACKAGES: Readonly<Record<string, string>> = Object.freeze({
  'linux-x64': '@foundry-rs/anvil-linux-amd64',
  'linux-arm64': '@foundry-rs/anvil-linux-arm64',
  'darwin-x64': '@foundry-rs/anvil-darwin-amd64',
  'darwin-arm64': '@foundry-rs/anvil-darwin-arm64',
  'win32-x64': '@foundry-rs/anvil-win32-amd64',
});

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
  const platformPackage = ANVIL_PLATFORM_PACKAGES[`${platform}-${arch}`];
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
      `the anvil binary is not installed: it comes in the npm package ${platformPackage}, an optional ` +
        'dependency of peerpay; run `npm install` (or `npm ci`) without --omit=optional, or run peerpay ' +
        'against an external node with CHAIN_RPC_URL.',
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
