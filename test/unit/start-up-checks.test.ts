// What main.ts checks before it writes anything: the embedded chain exists for this platform, the
// ports are free (see test/e2e/start-up.test.ts for the process), METRICS_PORT is valid; and an
// unhandled rejection is logged and ends the process with a non-zero code.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { checkEmbeddedChain, StartUpError } from '../../src/startup/start-up.js';
import { prepareDataDir, usesDataDir } from '../../src/startup/data-dir.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-start-up-unit-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('the embedded chain on an unsupported platform', () => {
  it('is one line naming the platform and CHAIN_RPC_URL', () => {
    const config = loadConfig({ DATA_DIR: path.join(root, 'never') });
    let error: unknown;
    try {
      checkEmbeddedChain(config, { platform: 'sunos', arch: 'x64' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(StartUpError);
    const message = (error as Error).message;
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toMatch(/^peerpay: the embedded chain is not available on sunos-x64; set CHAIN_RPC_URL /);
    expect(fs.existsSync(path.join(root, 'never'))).toBe(false);
  });

  it('is no obstacle with CHAIN_RPC_URL, and passes on linux-x64 where the binary is installed', () => {
    const external = loadConfig({
      CHAIN_RPC_URL: 'http://127.0.0.1:8545',
      USDC_ADDRESS: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
      EURC_ADDRESS: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
    });
    expect(() => checkEmbeddedChain(external, { platform: 'sunos', arch: 'x64' })).not.toThrow();
    expect(() => checkEmbeddedChain(loadConfig({}), { platform: 'linux', arch: 'x64' })).not.toThrow();
  });
});

describe('METRICS_PORT', () => {
  it('is unset by default, a port when set, and never the same as PORT', () => {
    expect(loadConfig({}).metricsPort).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '9464' }).metricsPort).toBe(9464);
    expect(() => loadConfig({ METRICS_PORT: 'nine' })).toThrow(/METRICS_PORT must be a whole number/);
    expect(() => loadConfig({ PORT: '3000', METRICS_PORT: '3000' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: '3000', METRICS_PORT: '3000' })).toThrow(/METRICS_PORT must differ from PORT/);
  });
});

describe('prepareDataDir', () => {
  it('creates DATA_DIR 0700 whatever the umask, and tightens an older, looser one with one warning', () => {
    const fresh = path.join(root, 'a', 'b');
    const warnings: string[] = [];
    prepareDataDir(fresh, (message) => warnings.push(message));
    expect(fs.statSync(fresh).mode & 0o777).toBe(0o700);
    expect(warnings).toEqual([]);

    const loose = path.join(root, 'loose');
    fs.mkdirSync(path.join(loose, 'pglite', 'base'), { recursive: true });
    fs.chmodSync(loose, 0o755);
    fs.writeFileSync(path.join(loose, 'pglite', 'base', '1'), 'x');
    fs.chmodSync(path.join(loose, 'pglite', 'base', '1'), 0o644);
    fs.writeFileSync(path.join(loose, 'master-seed'), 'x', { mode: 0o600 });
    const result = prepareDataDir(loose, (message) => warnings.push(message));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/DATA_DIR .*was open to group or others/);
    expect(result.tightened).toBeGreaterThanOrEqual(2);
    expect(fs.statSync(loose).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(loose, 'pglite', 'base', '1')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(loose, 'master-seed')).mode & 0o777).toBe(0o600);
  });

  it('is needed only when PGlite, the embedded chain or a generated seed lives there', () => {
    expect(usesDataDir({ databaseUrl: undefined, chainRpcUrl: 'http://x', masterSeedHex: 'ab' })).toBe(true);
    expect(usesDataDir({ databaseUrl: 'postgres://x', chainRpcUrl: undefined, masterSeedHex: 'ab' })).toBe(true);
    expect(usesDataDir({ databaseUrl: 'postgres://x', chainRpcUrl: 'http://x', masterSeedHex: undefined })).toBe(true);
    expect(usesDataDir({ databaseUrl: 'postgres://x', chainRpcUrl: 'http://x', masterSeedHex: 'ab' })).toBe(false);
  });
});

describe('an unhandled rejection', () => {
  it('is logged and ends the process with a non-zero code', async () => {
    const script = [
      "import pino from 'pino';",
      "import { installFatalHandlers } from './src/startup/fatal.ts';",
      'installFatalHandlers(pino());',
      "Promise.reject(new Error('lost promise'));",
      'setTimeout(() => console.log("still running"), 2000);',
    ].join('\n');
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    expect(output).not.toContain('still running');
    const line = output.split('\n').find((text) => text.includes('unhandled rejection'));
    expect(line, output).toBeDefined();
    const record = JSON.parse(line!);
    expect(record.level).toBe(60);
    expect(record.err.message).toBe('lost promise');
  });
});
