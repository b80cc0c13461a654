// The Node.js version the README names is one every installed package accepts: no package's
// `engines.node` excludes it (npm would warn EBADENGINE on `npm ci`, and the package may rely on
// what that Node.js lacks), and peerpay's own `engines` says the same version.
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } };

/** "Needs Node.js 20.19 or later" → 20.19.0. */
function readmeNodeVersion(): string {
  const named = /Needs Node\.js (\d+\.\d+(?:\.\d+)?) or later/.exec(readme);
  if (!named) throw new Error('the README names no "Needs Node.js X.Y or later"');
  return semver.coerce(named[1])!.version;
}

/** Every installed package's manifest: node_modules, @scopes, and node_modules nested in packages. */
function installedManifests(dir: string, found: string[] = []): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.name.startsWith('@')) {
      installedManifests(full, found);
      continue;
    }
    const manifestFile = path.join(full, 'package.json');
    if (fs.existsSync(manifestFile)) found.push(manifestFile);
    // A workspace is a link to its folder in packages/: its own dependencies are hoisted here.
    if (!entry.isSymbolicLink()) installedManifests(path.join(full, 'node_modules'), found);
  }
  return found;
}

describe('the Node.js version the README names', () => {
  const version = readmeNodeVersion();

  it("is peerpay's own engines.node floor", () => {
    expect(semver.minVersion(manifest.engines.node)?.version).toBe(version);
  });

  it('is accepted by every installed package', () => {
    const manifests = installedManifests(path.join(root, 'node_modules'));
    expect(manifests.length).toBeGreaterThan(100);
    const refusing = manifests.flatMap((file) => {
      const {
        name,
        version: packageVersion,
        engines,
      } = JSON.parse(fs.readFileSync(file, 'utf8')) as {
        name?: string;
        version?: string;
        engines?: { node?: unknown };
      };
      const range = engines?.node;
      if (typeof range !== 'string' || semver.satisfies(version, range)) return [];
      return [`${name}@${packageVersion} needs node ${range} (${path.relative(root, file)})`];
    });
    expect(refusing, `packages that refuse Node.js ${version}`).toEqual([]);
  });
});
