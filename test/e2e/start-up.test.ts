// What `src/main.ts` does at start, as a process: DATA_DIR and every file peerpay or PGlite or anvil
// writes in it are private to the user (0700 directories, 0600 files), also when an older start left
// them looser; a port already in use stops the start with one line and nothing written; so does a
// new database for a master seed whose deposit addresses were used on the chain before.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createHdWalletProvider } from '../../src/adapters/wallet/hd-wallet-provider.js';
import { freePort } from '../helpers/free-port.js';
import { spawnMain } from '../helpers/main-process.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-start-up-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** Every path under dir (dir included) whose mode lets group or others read, write or enter it. */
function looseEntries(dir: string): string[] {
  const loose: string[] = [];
  const visit = (entry: string) => {
    const stat = fs.lstatSync(entry);
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & 0o077) !== 0) loose.push(`${path.relative(dir, entry) || '.'} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(dir);
  return loose;
}

async function holdPort(port: number): Promise<net.Server> {
  const holder = net.createServer();
  await new Promise<void>((resolve, reject) => {
    holder.once('error', reject);
    holder.listen(port, '127.0.0.1', () => resolve());
  });
  return holder;
}

const nonEmptyLines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

/** The exit code, or the process is stopped (SIGTERM) and null when it has not exited within the time. */
async function exitCodeWithin(service: ReturnType<typeof spawnMain>, timeoutMs: number): Promise<number | null> {
  const timer = new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), timeoutMs).unref());
  const first = await Promise.race([service.exited, timer]);
  if (first !== 'running') return first;
  await service.stop();
  return null;
}

// PGlite in DATA_DIR is what this is about (its WAL holds e-mails and password hashes), so the
// process runs on PGlite in both test passes.
describe('DATA_DIR', () => {
  it('is created 0700, and nothing under it is open to group or others, while running and after a stop', async () => {
    const dataDir = path.join(root, 'fresh', 'data');
    const port = await freePort();
    const service = spawnMain({ PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: undefined, MASTER_SEED: undefined });
    try {
      await service.healthy(`http://127.0.0.1:${port}`);
      const registered = await fetch(`http://127.0.0.1:${port}/agent/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'private@example.com', password: 'correct horse battery', name: 'Private Person' }),
      });
      expect(registered.status).toBe(201);
      expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(fs.existsSync(path.join(dataDir, 'pglite'))).toBe(true);
      expect(fs.existsSync(path.join(dataDir, 'master-seed'))).toBe(true);
      expect(looseEntries(dataDir)).toEqual([]);
    } finally {
      expect(await service.stop()).toBe(0);
    }
    // anvil writes its state on SIGTERM.
    expect(fs.existsSync(path.join(dataDir, 'chain', 'anvil-state.json'))).toBe(true);
    expect(looseEntries(dataDir)).toEqual([]);
  }, 120_000);

  it('left looser by an older start is tightened at start, with a warning', async () => {
    const dataDir = path.join(root, 'loose');
    fs.mkdirSync(path.join(dataDir, 'old'), { recursive: true, mode: 0o755 });
    fs.chmodSync(dataDir, 0o755);
    fs.chmodSync(path.join(dataDir, 'old'), 0o775);
    fs.writeFileSync(path.join(dataDir, 'old', 'notes.txt'), 'kept\n', { mode: 0o644 });
    fs.chmodSync(path.join(dataDir, 'old', 'notes.txt'), 0o644);
    const port = await freePort();
    const service = spawnMain({ PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: undefined, MASTER_SEED: undefined });
    try {
      await service.healthy(`http://127.0.0.1:${port}`);
      expect(looseEntries(dataDir)).toEqual([]);
      expect(fs.readFileSync(path.join(dataDir, 'old', 'notes.txt'), 'utf8')).toBe('kept\n');
      expect(service.output()).toMatch(/DATA_DIR .*was open to group or others/);
    } finally {
      expect(await service.stop()).toBe(0);
    }
  }, 120_000);
});

describe('a port already in use', () => {
  it('stops the start with one line naming PORT, before anything is written to DATA_DIR', async () => {
    const port = await freePort();
    const holder = await holdPort(port);
    const dataDir = path.join(root, 'port-in-use', 'data');
    try {
      const service = spawnMain({ PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: undefined, MASTER_SEED: undefined });
      const code = await exitCodeWithin(service, 30_000);
      expect(code).not.toBeNull();
      expect(code).not.toBe(0);
      expect(nonEmptyLines(service.output())).toEqual([
        `peerpay: port ${port} is in use; set PORT to a free port or stop what listens on it`,
      ]);
      expect(fs.existsSync(dataDir)).toBe(false);
      expect(fs.existsSync(path.join(root, 'port-in-use'))).toBe(false);
    } finally {
      holder.close();
    }
  }, 60_000);

  it('for METRICS_PORT names METRICS_PORT, also before anything is written', async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    const holder = await holdPort(metricsPort);
    const dataDir = path.join(root, 'metrics-port-in-use', 'data');
    try {
      const service = spawnMain({
        PORT: String(port),
        METRICS_PORT: String(metricsPort),
        DATA_DIR: dataDir,
        DATABASE_URL: undefined,
        MASTER_SEED: undefined,
      });
      const code = await exitCodeWithin(service, 30_000);
      expect(code).not.toBeNull();
      expect(code).not.toBe(0);
      expect(nonEmptyLines(service.output())).toEqual([
        `peerpay: port ${metricsPort} is in use; set METRICS_PORT to a free port or stop what listens on it`,
      ]);
      expect(fs.existsSync(dataDir)).toBe(false);
    } finally {
      holder.close();
    }
  }, 60_000);
});

describe('a new database for a seed used on this chain before', () => {
  it('stops the start with one line naming the used address; the database that used it starts again', async () => {
    const dataDir = path.join(root, 'used-seed', 'data');
    const start = async () => {
      const port = await freePort();
      return { port, service: spawnMain({ PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: undefined, MASTER_SEED: undefined }) };
    };
    const first = await start();
    let later: string;
    try {
      await first.service.healthy(`http://127.0.0.1:${first.port}`);
      const seed = Buffer.from(fs.readFileSync(path.join(dataDir, 'master-seed'), 'utf8').trim(), 'hex');
      later = createHdWalletProvider(seed).walletFor(37).address;
      // Tokens reach account 37's address; no account 37 exists in this database, nothing sweeps them.
      const minted = await fetch(`http://127.0.0.1:${first.port}/test-helpers/stablecoin/faucet`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ address: later, amount: 2, currency: 'USDC' }),
      });
      expect(minted.status).toBe(200);
    } finally {
      // anvil writes its state on SIGTERM.
      expect(await first.service.stop()).toBe(0);
    }
    // The database is lost; the seed and the chain are kept.
    fs.renameSync(path.join(dataDir, 'pglite'), path.join(dataDir, 'pglite-kept'));
    const refused = await start();
    const code = await exitCodeWithin(refused.service, 60_000);
    expect(code).not.toBeNull();
    expect(code).not.toBe(0);
    const lines = nonEmptyLines(refused.service.output());
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^peerpay: the database does not belong to this seed and chain: it is new, but the master seed was used on this chain before/,
    );
    expect(lines[0]).toContain(`the deposit address of account 37 (${later}) received USDC in block`);
    // The database it belongs to is brought back: it starts.
    fs.rmSync(path.join(dataDir, 'pglite'), { recursive: true, force: true });
    fs.renameSync(path.join(dataDir, 'pglite-kept'), path.join(dataDir, 'pglite'));
    const restored = await start();
    try {
      await restored.service.healthy(`http://127.0.0.1:${restored.port}`);
    } finally {
      expect(await restored.service.stop()).toBe(0);
    }
  }, 240_000);
});
