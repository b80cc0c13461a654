// Resident memory of the bench process, where peerpay runs in-process (bench/peerpay-process.ts):
// its RSS right after a peerpay starts, and its peak while the load runs. The peak is the kernel's
// high-water mark (VmHWM in /proc/self/status, reset at the start by writing 5 to
// /proc/self/clear_refs) where Linux offers it, and otherwise the largest of samples taken every
// 100 ms; the report says which.
import fs from 'node:fs';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

const MiB = 1024 * 1024;
const SAMPLE_MS = 100;

/** In MiB; the shape bench/targets.ts judges (idleMb, peakMb). */
export interface RssFigure {
  /** Before peerpay started, after a full collection: what the bench and earlier parts of the run hold. */
  beforeMb: number;
  idleMb: number;
  peakMb: number;
  peakSource: 'VmHWM' | 'samples';
}

export function rssMb(): number {
  return process.memoryUsage.rss() / MiB;
}

/**
 * Full garbage collections, so that a figure counts what is live, not what an earlier part of the
 * run or a start-up left (another database's peerpay, PGlite's initdb and WebAssembly heaps): two,
 * a moment apart, as memory held outside the JavaScript heap is freed after the first finds it dead.
 */
export async function collectGarbage(): Promise<void> {
  v8.setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  for (let i = 0; i < 2; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function highWaterMarkMb(): number | undefined {
  try {
    const kb = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

function resetHighWaterMark(): boolean {
  try {
    fs.writeFileSync('/proc/self/clear_refs', '5');
    return highWaterMarkMb() !== undefined;
  } catch {
    return false;
  }
}

/** Starts watching the peak; `stop()` answers it, with the idle figure taken before. */
export function watchPeak(beforeMb: number, idleMb: number): { stop(): RssFigure } {
  const kernel = resetHighWaterMark();
  let sampled = rssMb();
  const timer = setInterval(() => (sampled = Math.max(sampled, rssMb())), SAMPLE_MS);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      sampled = Math.max(sampled, rssMb());
      const hwm = kernel ? highWaterMarkMb() : undefined;
      return hwm === undefined
        ? { beforeMb, idleMb, peakMb: sampled, peakSource: 'samples' }
        : { beforeMb, idleMb, peakMb: Math.max(hwm, sampled), peakSource: 'VmHWM' };
    },
  };
}
