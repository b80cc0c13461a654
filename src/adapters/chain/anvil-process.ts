// Runs anvil, the embedded EVM node of sandbox mode, as a child process: on a loopback port that the
// kernel picks (--port 0; anvil 1.7 prints the port it bound), with its whole chain (accounts,
// code, storage, blocks, receipts, logs) kept in DATA_DIR/anvil-state.json so a restart continues
// the same chain. anvil writes that file on SIGTERM and every `stateIntervalSeconds` besides.
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { resolveAnvilBinary } from './anvil-binary.js';
import { reclaimOrphanAnvil, removePidFile, writePidFile } from './anvil-pid-file.js';

export const ANVIL_STATE_FILE = 'anvil-state.json';
/** The state that anvil last loaded successfully, kept in case a crash tears the state file. */
export const ANVIL_PREVIOUS_STATE_FILE = 'anvil-state.previous.json';
export const ANVIL_LOG_FILE = 'anvil.log';
const ANVIL_PID_FILE = 'anvil.pid';

// Fixed so that a chain kept in DATA_DIR behaves the same after an anvil upgrade. Prague is the
// newest fork that Polygon PoS runs.
const HARDFORK = 'prague';
const POLL_MS = 25;
const LOG_TAIL_BYTES = 4096;

export interface AnvilOptions {
  dataDir: string;
  chainId: number;
  /** Seconds between periodic state dumps; a crash loses at most this much of the chain. */
  stateIntervalSeconds?: number;
  startTimeoutMs?: number;
  /** How long anvil gets to write its state after SIGTERM before it is killed. */
  stopTimeoutMs?: number;
  /** The anvil executable; by default the one from the @foundry-rs/anvil platform package. */
  binaryPath?: string;
}

export interface AnvilExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface AnvilProcess {
  readonly rpcUrl: string;
  readonly pid: number;
  readonly stateFile: string;
  /** Settles when anvil exits for any reason, also unexpectedly (health checks can watch it). */
  readonly exited: Promise<AnvilExit>;
  isRunning(): boolean;
  /** SIGTERM (anvil writes its state), then SIGKILL after the stop timeout. Safe to call twice. */
  stop(): Promise<void>;
}

export class AnvilStartError extends Error {
  override name = 'AnvilStartError';
}

export async function startAnvil(options: AnvilOptions): Promise<AnvilProcess> {
  const startTimeoutMs = options.startTimeoutMs ?? 20_000;
  const stopTimeoutMs = options.stopTimeoutMs ?? 10_000;
  const binaryPath = options.binaryPath ?? resolveAnvilBinary();
  const dataDir = path.resolve(options.dataDir);
  const stateFile = path.join(dataDir, ANVIL_STATE_FILE);
  const logFile = path.join(dataDir, ANVIL_LOG_FILE);
  const pidFile = path.join(dataDir, ANVIL_PID_FILE);
  fs.mkdirSync(dataDir, { recursive: true });
  await reclaimOrphanAnvil({ pidFile, stateFile, stopTimeoutMs });
  // The state about to be loaded is copied aside, and becomes the "previous" copy only once anvil
  // has loaded it: the previous copy is then always a state that anvil could read.
  const previousStateFile = path.join(dataDir, ANVIL_PREVIOUS_STATE_FILE);
  const candidateStateFile = `${previousStateFile}.candidate`;
  const hadState = fs.existsSync(stateFile);
  if (hadState) fs.copyFileSync(stateFile, candidateStateFile);

  const args = anvilArgs(options, stateFile);
  // anvil's output goes to a file, not a pipe: an anvil that outlives a killed peerpay must not die
  // of a broken pipe before it has saved its state. The file is truncated at every start.
  const logFd = fs.openSync(logFile, 'w', 0o600);
  // Its own process group: a Ctrl-C in the terminal reaches peerpay, which stops anvil after its
  // own graceful shutdown, rather than anvil quitting under requests still in flight.
  const child = spawn(binaryPath, args, { stdio: ['ignore', logFd, logFd], detached: true });
  fs.closeSync(logFd);
  const exited = new Promise<AnvilExit>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', () => resolve({ code: null, signal: null }));
  });
  let exitInfo: AnvilExit | null = null;
  void exited.then((info) => (exitInfo = info));
  const pid = child.pid;
  if (pid === undefined) {
    await exited;
    throw new AnvilStartError(`could not run ${binaryPath}`);
  }
  writePidFile(pidFile, { anvilPid: pid, ownerPid: process.pid, stateFile });

  // If peerpay exits without stop() (an uncaught error, process.exit), anvil is still told to
  // save its state and quit; SIGTERM lets it do so after peerpay is gone.
  const onOwnerExit = () => {
    if (exitInfo === null) child.kill('SIGTERM');
  };
  process.once('exit', onOwnerExit);

  let stopping: Promise<void> | null = null;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      process.off('exit', onOwnerExit);
      if (exitInfo === null) {
        child.kill('SIGTERM');
        if (!(await settlesWithin(exited, stopTimeoutMs))) {
          child.kill('SIGKILL');
          await exited;
        }
      }
      removePidFile(pidFile, pid);
    })());

  try {
    const deadline = Date.now() + startTimeoutMs;
    const rpcUrl = await waitForListeningLine({ logFile, deadline, hasExited: () => exitInfo !== null });
    await waitForRpc({ rpcUrl, chainId: options.chainId, deadline, hasExited: () => exitInfo !== null });
    if (hadState) fs.renameSync(candidateStateFile, previousStateFile);
    return { rpcUrl, pid, stateFile, exited, isRunning: () => exitInfo === null, stop };
  } catch (error) {
    await stop();
    fs.rmSync(candidateStateFile, { force: true });
    const hint =
      hadState && fs.existsSync(previousStateFile)
        ? ` If ${stateFile} is damaged, ${ANVIL_PREVIOUS_STATE_FILE} beside it holds the state that the previous start loaded.`
        : '';
    throw new AnvilStartError(`${(error as Error).message}${hint}\nanvil's log ends with:\n${readTail(logFile)}`);
  }
}

/** The command line: loopback, a kernel-picked port, and the chain kept in `stateFile`. */
function anvilArgs(options: AnvilOptions, stateFile: string): string[] {
  return [
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--chain-id',
    String(options.chainId),
    '--hardfork',
    HARDFORK,
    // No dev accounts: peerpay's keys come from its master seed, and gas is granted with
    // anvil_setBalance. This also keeps anvil from printing well-known private keys to its log.
    '--accounts',
    '0',
    '--state',
    stateFile,
    '--state-interval',
    String(options.stateIntervalSeconds ?? 1),
  ];
}

async function waitForListeningLine(options: { logFile: string; deadline: number; hasExited: () => boolean }): Promise<string> {
  for (;;) {
    const match = /Listening on (\S+):(\d+)/.exec(readTail(options.logFile));
    if (match) return `http://${match[1]}:${match[2]}`;
    if (options.hasExited()) throw new AnvilStartError('anvil exited before it was listening.');
    if (Date.now() >= options.deadline) throw new AnvilStartError('anvil did not start listening in time.');
    await sleep(POLL_MS);
  }
}

/** The port is bound before the RPC handlers answer; wait for a real answer with the right chain. */
async function waitForRpc(options: { rpcUrl: string; chainId: number; deadline: number; hasExited: () => boolean }): Promise<void> {
  for (;;) {
    const remainingMs = options.deadline - Date.now();
    if (options.hasExited()) throw new AnvilStartError('anvil exited before its RPC answered.');
    if (remainingMs <= 0) throw new AnvilStartError(`anvil's RPC at ${options.rpcUrl} did not answer in time.`);
    try {
      const response = await fetch(options.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
        signal: AbortSignal.timeout(Math.min(remainingMs, 2000)),
      });
      const body = (await response.json()) as { result?: string };
      if (body.result !== undefined) {
        if (Number(body.result) !== options.chainId) {
          throw new AnvilStartError(`anvil answers chain id ${Number(body.result)}, expected ${options.chainId}.`);
        }
        return;
      }
    } catch (error) {
      if (error instanceof AnvilStartError) throw error;
      // Not answering yet: poll again.
    }
    await sleep(POLL_MS);
  }
}

async function settlesWithin(promise: Promise<unknown>, timeoutMs: number): Promise<boolean> {
  const timer = new AbortController();
  const settled = await Promise.race([promise.then(() => true), sleep(timeoutMs, false, { signal: timer.signal }).catch(() => false)]);
  timer.abort();
  return settled;
}

/** The end of anvil's log, for error messages; bounded so a long log is never read whole. */
function readTail(logFile: string): string {
  let fd: number;
  try {
    fd = fs.openSync(logFile, 'r');
  } catch {
    return '';
  }
  try {
    const size = fs.fstatSync(fd).size;
    const length = Math.min(size, LOG_TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    fs.readSync(fd, buffer, 0, length, size - length);
    return buffer.toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}
