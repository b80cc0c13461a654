// Every platform that Foundry's anvil package ships is an optional dependency at one pinned
// version, in the lock file with the os and cpu that make npm install only the matching one, and
// is the package resolveAnvilBinary picks on that platform; any other platform is refused as such.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ANVIL_PLATFORM_PACKAGES, AnvilBinaryError, resolveAnvilBinary } from '../../src/adapters/chain/anvil-binary.js';

const packageJson = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8'));
const NPM_CPU: Record<string, string> = { x64: 'x64', arm64: 'arm64' };

function errorOf(run: () => unknown): AnvilBinaryError {
  try {
    run();
  } catch (error) {
    if (error instanceof AnvilBinaryError) return error;
    throw error;
  }
  throw new Error('no AnvilBinaryError');
}

describe('the anvil platform packages', () => {
  it('are linux x64 and arm64, macOS x64 and arm64, and Windows x64', () => {
    expect(Object.keys(ANVIL_PLATFORM_PACKAGES).sort()).toEqual(['darwin-arm64', 'darwin-x64', 'linux-arm64', 'linux-x64', 'win32-x64']);
  });

  it('are all optional dependencies at one pinned version, and no other anvil package is', () => {
    const optional: Record<string, string> = packageJson.optionalDependencies;
    const anvilPackages = Object.keys({ ...packageJson.dependencies, ...packageJson.devDependencies, ...optional }).filter((name) =>
      name.startsWith('@foundry-rs/'),
    );
    expect(anvilPackages.sort()).toEqual(Object.values(ANVIL_PLATFORM_PACKAGES).sort());
    const versions = new Set(Object.values(ANVIL_PLATFORM_PACKAGES).map((name) => optional[name]));
    expect([...versions]).toHaveLength(1);
    expect([...versions][0]).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('are in the lock file, each for its own os and cpu', () => {
    for (const [platform, name] of Object.entries(ANVIL_PLATFORM_PACKAGES)) {
      const [os, arch] = platform.split('-') as [string, string];
      const entry = lock.packages[`node_modules/${name}`];
      expect(entry, name).toBeDefined();
      expect(entry.version).toBe(packageJson.optionalDependencies[name]);
      expect(entry.optional).toBe(true);
      expect(entry.os).toEqual([os]);
      expect(entry.cpu).toEqual([NPM_CPU[arch]]);
      expect(entry.hasInstallScript ?? false).toBe(false);
    }
  });

  it('are chosen at run time: the installed one here, a missing one named, an unsupported platform refused', () => {
    const here = `${process.platform}-${process.arch}`;
    const installed = ANVIL_PLATFORM_PACKAGES[here];
    if (installed) expect(resolveAnvilBinary().replaceAll('\\', '/')).toContain(`${installed}/bin/anvil`);
    for (const [platform, name] of Object.entries(ANVIL_PLATFORM_PACKAGES)) {
      if (platform === here) continue;
      const [os, arch] = platform.split('-') as [string, string];
      const missing = errorOf(() => resolveAnvilBinary(os, arch));
      expect(missing.kind).toBe('missing');
      expect(missing.message).toContain(name);
    }
    for (const [os, arch] of [
      ['linux', 'ia32'],
      ['win32', 'arm64'],
      ['freebsd', 'x64'],
      ['linux', 'riscv64'],
    ] as const) {
      const unsupported = errorOf(() => resolveAnvilBinary(os, arch));
      expect(unsupported.kind).toBe('unsupported');
      expect(unsupported.message).toContain(`${os}-${arch}`);
    }
  });
});
