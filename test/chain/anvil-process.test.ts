// anvil as a child process: the binary from the npm platform package, a kernel-chosen port, state
// in DATA_DIR written on SIGTERM and periodically, clean stops, orphans of a dead peerpay reclaimed,
// and a clear error when the state file is damaged.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { AnvilBinaryError, resolveAnvilBinary } from '../../src/adapters/chain/anvil-binary.js';
import {
  ANVIL_PREVIOUS_STATE_FILE,
  ANVIL_STATE_FILE,
  AnvilStartError,
  startAnvil,
  type AnvilProcess,
} from '../../src/adapters/chain/anvil-process.js';
import { EmbeddedChainBusyError, isProcessAlive } from '../../src/adapters/chain/anvil-pid-file.js';
import { makeTempDataDir, removeDataDir } from './chain-fixture.js';
import packageJson from '../../package.json' with { type: 'json' };

const started: AnvilProcess[] = [];
const dataDirs: string[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((anvil) => anvil.stop()));
  for (const dir of dataDirs.splice(0)) removeDataDir(dir);
});

function tempDir(): string {
  const dir = makeTempDataDir();
  dataDirs.push(dir);
  return dir;
}

async function start(dataDir: string): Promise<AnvilProcess> {
  const anvil = await startAnvil({ dataDir, chainId: 137 });
  started.push(anvil);
  return anvil;
}

async function rpc<T>(rpcUrl: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
  return body.result as T;
}

const ADDRESS = '0x00000000000000000000000000000000000a11ce';

/** Polls until `check` holds, failing after the deadline; never a fixed sleep. */
async function eventually(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** True once a dump has finished (the file parses) and holds the address; a dump in progress does not count. */
function completeStateMentions(stateFile: string, address: string): boolean {
  try {
    const text = fs.readFileSync(stateFile, 'utf8');
    JSON.parse(text);
    return text.includes(address);
  } catch {
    return false;
  }
}

describe('the anvil binary', () => {
  it('comes from the installed platform package, executable, at the pinned version', () => {
    const binary = resolveAnvilBinary();
    expect(binary).toMatch(/@foundry-rs[/\\]anvil-[a-z0-9]+-[a-z0-9]+[/\\]bin[/\\]anvil(\.exe)?$/);
    const version = spawnSync(binary, ['--version'], { encoding: 'utf8' });
    const pinned = packageJson.optionalDependencies['@foundry-rs/anvil-linux-amd64'];
    expect(version.stdout.startsWith(`anvil Version: ${pinned}\n`)).toBe(true);
  });

  it('names the missing optional package, or the unsupported platform', () => {
    const otherArch = process.arch === 'x64' ? 'arm64' : 'x64';
    expect(() => resolveAnvilBinary(process.platform, otherArch)).toThrow(AnvilBinaryError);
    expect(() => resolveAnvilBinary(process.platform, otherArch)).toThrow(/npm install/);
    expect(() => resolveAnvilBinary('sunos', 'x64')).toThrow(/CHAIN_RPC_URL/);
  });
});

describe('the anvil process', () => {
  it('listens on a loopback port of its own choosing with chain id 137, and stops cleanly writing its state', async () => {
    const dataDir = tempDir();
    const anvil = await start(dataDir);
    expect(anvil.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await rpc(anvil.rpcUrl, 'eth_chainId')).toBe('0x89');
    expect(anvil.isRunning()).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'anvil.pid'), 'utf8'))).toMatchObject({
      anvilPid: anvil.pid,
      ownerPid: process.pid,
    });
    await rpc(anvil.rpcUrl, 'anvil_setBalance', [ADDRESS, '0x1234']);
    // No dev accounts, so anvil's log lists no private keys.
    const log = fs.readFileSync(path.join(dataDir, 'anvil.log'), 'utf8');
    expect(log).toContain('Private Keys');
    expect(log).not.toMatch(/^\(\d+\) 0x[0-9a-f]{64}$/m);

    await anvil.stop();
    expect(await anvil.exited).toEqual({ code: 0, signal: null });
    expect(anvil.isRunning()).toBe(false);
    expect(isProcessAlive(anvil.pid)).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'anvil.pid'))).toBe(false);
    expect(fs.readFileSync(anvil.stateFile, 'utf8')).toContain(ADDRESS);
    await anvil.stop();
  });

  it('runs several chains side by side on different ports', async () => {
    const [a, b] = await Promise.all([start(tempDir()), start(tempDir())]);
    expect(a.rpcUrl).not.toBe(b.rpcUrl);
    expect(await rpc(b.rpcUrl, 'eth_blockNumber')).toBe('0x0');
  });

  it('keeps the chain across a restart, including after a crash, thanks to the periodic dump', async () => {
    const dataDir = tempDir();
    const first = await start(dataDir);
    await rpc(first.rpcUrl, 'anvil_setBalance', [ADDRESS, '0xbeef']);
    // Written within the state interval (1 s) while anvil runs, not only on exit.
    const stateFile = path.join(dataDir, ANVIL_STATE_FILE);
    await eventually(() => completeStateMentions(stateFile, ADDRESS), 5000, 'the periodic state dump');
    process.kill(first.pid, 'SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });

    const second = await start(dataDir);
    expect(await rpc(second.rpcUrl, 'eth_getBalance', [ADDRESS, 'latest'])).toBe('0xbeef');
  });

  it('refuses a second anvil on a DATA_DIR whose chain is running', async () => {
    const dataDir = tempDir();
    const running = await start(dataDir);
    await expect(startAnvil({ dataDir, chainId: 137 })).rejects.toThrow(EmbeddedChainBusyError);
    expect(await rpc(running.rpcUrl, 'eth_chainId')).toBe('0x89');
  });

  it('stops an anvil that a dead peerpay left behind, which saves its state, before starting anew', async () => {
    const dataDir = tempDir();
    const orphan = await start(dataDir);
    await rpc(orphan.rpcUrl, 'anvil_setBalance', [ADDRESS, '0x0c0ffee']);
    // Make the record say that its owner was a process which has since exited.
    const deadOwner = spawnSync(process.execPath, ['-e', '']).pid;
    const pidFile = path.join(dataDir, 'anvil.pid');
    fs.writeFileSync(pidFile, JSON.stringify({ ...JSON.parse(fs.readFileSync(pidFile, 'utf8')), ownerPid: deadOwner }));

    const successor = await start(dataDir);
    expect(await orphan.exited).toEqual({ code: 0, signal: null });
    expect(await rpc(successor.rpcUrl, 'eth_getBalance', [ADDRESS, 'latest'])).toBe('0xc0ffee');
    // The orphan's handle stopping late must not remove its successor's record.
    await orphan.stop();
    expect(JSON.parse(fs.readFileSync(pidFile, 'utf8'))).toMatchObject({ anvilPid: successor.pid });
  });

  it('explains a damaged state file and keeps the last state that loaded', async () => {
    const dataDir = tempDir();
    const first = await start(dataDir);
    await rpc(first.rpcUrl, 'anvil_setBalance', [ADDRESS, '0x2a']);
    await first.stop();
    await (await start(dataDir)).stop();
    const stateFile = path.join(dataDir, ANVIL_STATE_FILE);
    const previousFile = path.join(dataDir, ANVIL_PREVIOUS_STATE_FILE);
    expect(fs.readFileSync(previousFile, 'utf8')).toContain(ADDRESS);

    fs.writeFileSync(stateFile, '{"block": {"number": "0x');
    const failure = await startAnvil({ dataDir, chainId: 137 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AnvilStartError);
    expect((failure as Error).message).toContain(ANVIL_PREVIOUS_STATE_FILE);
    expect(fs.existsSync(path.join(dataDir, 'anvil.pid'))).toBe(false);

    fs.copyFileSync(previousFile, stateFile);
    const recovered = await start(dataDir);
    expect(await rpc(recovered.rpcUrl, 'eth_getBalance', [ADDRESS, 'latest'])).toBe('0x2a');
  });
});
