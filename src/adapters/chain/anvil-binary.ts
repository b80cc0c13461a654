// Finds the anvil executable that npm installed. @foundry-rs/anvil ships only a wrapper script and
// a postinstall that may download; the binary itself arrives in a per-platform package that npm
// installs as an optional dependency, without running any script. peerpay denies the postinstall
// (package.json allowScripts) and resolves the platform package itself, next to @foundry-rs/anvil
// so that both always come from the same release.
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
}

export function resolveAnvilBinary(platform: string = process.platform, arch: string = process.arch): string {
  const platformPackage = PLATFORM_PACKAGES[`${platform}-${arch}`];
  if (!platformPackage) {
    throw new AnvilBinaryError(
      `anvil has no npm build for ${platform}-${arch}; run peerpay against an external node with CHAIN_RPC_URL instead`,
    );
  }
  const binaryName = platform === 'win32' ? 'anvil.exe' : 'anvil';
  let binaryPath: string;
  try {
    // Resolving from @foundry-rs/anvil's own location finds the platform package whether npm
    // hoisted it to the top of node_modules or nested it under the wrapper.
    const fromProject = createRequire(import.meta.url);
    const fromWrapper = createRequire(fromProject.resolve('@foundry-rs/anvil/package.json'));
    binaryPath = fromWrapper.resolve(`${platformPackage}/bin/${binaryName}`);
  } catch {
    throw new AnvilBinaryError(
      `the anvil binary is not installed: npm installs it from the optional dependency ${platformPackage} ` +
        'of @foundry-rs/anvil. Run `npm install` without --omit=optional (or --no-optional), or run peerpay ' +
        'against an external node with CHAIN_RPC_URL.',
    );
  }
  try {
    fs.accessSync(binaryPath, fs.constants.X_OK);
  } catch {
    throw new AnvilBinaryError(`${binaryPath} is not executable; reinstall ${platformPackage} with npm`);
  }
  return binaryPath;
}
