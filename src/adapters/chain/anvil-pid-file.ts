// Records which anvil runs the chain kept in a DATA_DIR, and for which peerpay process. anvil runs in
// its own process group (so that a Ctrl-C in the terminal reaches peerpay, which then stops anvil
// after its own shutdown), which also means that a peerpay killed without a chance to clean up
// leaves its anvil running. The next start finds that orphan here and stops it with SIGTERM, on
// which anvil writes its state, instead of starting a second anvil on the same state file.
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

interface PidRecord {
  anvilPid: number;
  ownerPid: number;
  stateFile: string;
}

const POLL_MS = 25;

export class EmbeddedChainBusyError extends Error {
  override name = 'EmbeddedChainBusyError';
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Waits until the process is gone; false when the deadline passed first. */
export async function waitForProcessExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isProcessAlive(pid)) {
    if (Date.now() >= deadline) return false;
    await sleep(POLL_MS);
  }
  return true;
}

export function writePidFile(pidFile: string, record: PidRecord): void {
  fs.writeFileSync(pidFile, JSON.stringify(record) + '\n', { mode: 0o600 });
}

/** Removes the file only while it still names this anvil, so a successor's record survives. */
export function removePidFile(pidFile: string, anvilPid: number): void {
  const record = readPidFile(pidFile);
  if (record?.anvilPid === anvilPid) fs.rmSync(pidFile, { force: true });
}

/**
 * Stops an anvil that a dead peerpay left running on this state file. Throws when the peerpay that
 * started it is still alive: two services must not share one DATA_DIR's chain.
 */
export async function reclaimOrphanAnvil(options: {
  pidFile: string;
  stateFile: string;
  stopTimeoutMs: number;
}): Promise<'none' | 'stopped'> {
  const record = readPidFile(options.pidFile);
  if (!record || !isProcessAlive(record.anvilPid) || !isAnvilOnStateFile(record.anvilPid, options.stateFile)) {
    fs.rmSync(options.pidFile, { force: true });
    return 'none';
  }
  if (isProcessAlive(record.ownerPid)) {
    throw new EmbeddedChainBusyError(
      `the embedded chain in ${options.stateFile} is already running (anvil pid ${record.anvilPid}, ` +
        `started by process ${record.ownerPid}); stop that peerpay first`,
    );
  }
  process.kill(record.anvilPid, 'SIGTERM');
  if (!(await waitForProcessExit(record.anvilPid, options.stopTimeoutMs))) {
    process.kill(record.anvilPid, 'SIGKILL');
    await waitForProcessExit(record.anvilPid, options.stopTimeoutMs);
  }
  fs.rmSync(options.pidFile, { force: true });
  return 'stopped';
}

function readPidFile(pidFile: string): PidRecord | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(pidFile, 'utf8'));
  } catch {
    return null;
  }
  const record = parsed as Partial<PidRecord>;
  if (!Number.isInteger(record.anvilPid) || !Number.isInteger(record.ownerPid) || typeof record.stateFile !== 'string') return null;
  return record as PidRecord;
}

/**
 * Guards against a recycled pid: the process must be an anvil started on this state file. Where
 * /proc is missing (macOS) this cannot be checked, and an unverifiable process is left alone.
 */
function isAnvilOnStateFile(pid: number, stateFile: string): boolean {
  let commandLine: string[];
  try {
    commandLine = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return false;
  }
  return /anvil(\.exe)?$/.test(commandLine[0] ?? '') && commandLine.includes(stateFile);
}
