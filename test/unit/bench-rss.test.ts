// The bench's memory figures (bench/rss.ts): the peak is measured from the moment watching starts,
// not from the process's whole life, and it sees memory used and released between two samples.
import { describe, expect, it } from 'vitest';
import { renderReport, type DatabaseRun } from '../../bench/report.js';
import { collectGarbage, rssMb, watchPeak } from '../../bench/rss.js';

const MiB = 1024 * 1024;

/** Makes `mib` MiB resident (written, not only reserved), then lets it go. */
function touchAndRelease(mib: number): number {
  return Buffer.alloc(mib * MiB, 1).length;
}

describe('bench RSS figures', () => {
  it('the peak counts what was resident since watching started, even when released before stop()', async () => {
    // A large peak before watching starts must not count.
    expect(touchAndRelease(300)).toBe(300 * MiB);
    await collectGarbage();
    const idle = rssMb();
    const watch = watchPeak(idle, idle);
    expect(touchAndRelease(64)).toBe(64 * MiB);
    await collectGarbage();
    const figure = watch.stop();
    expect(figure.idleMb).toBe(idle);
    expect(figure.peakMb).toBeGreaterThanOrEqual(idle + 60);
    if (figure.peakSource === 'VmHWM') expect(figure.peakMb).toBeLessThan(idle + 64 + 100);
  });

  it('the report gives each database its RSS before start, idle and peak, and peak ÷ idle', () => {
    const run: DatabaseRun = {
      database: 'postgres',
      rows: [],
      seedSeconds: 1,
      invariantViolations: 0,
      completedTransfers: 0,
      writes2xx: 0,
      server2xxTransfers: 0,
      inFlightAtStop: 0,
      pgCeiling: [],
      memory: { beforeMb: 100, idleMb: 150, peakMb: 240, peakSource: 'VmHWM' },
    };
    const { markdown } = renderReport({
      settings: { users: 1, seconds: 1, repeats: 1, levels: [8], databases: ['postgres'], durabilityOff: false },
      versions: { commit: 'c', node: 'n', postgres: 'p', pglite: 'g', fastify: 'f', autocannon: 'a', cpus: 2, cpuModel: 'm', memoryGiB: 1 },
      runs: [run],
      http: [],
      started: new Date(),
      elapsedSeconds: 1,
      chartFile: 'chart.svg',
    });
    expect(markdown).toContain('## Memory');
    expect(markdown).toContain('| postgres | 100 | 150 | 240 | 1.60× | VmHWM |');
  });
});
