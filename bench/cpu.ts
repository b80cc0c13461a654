// CPU time spent by each party of a measurement, from the kernel's counters (Linux): the peerpay
// process (the bench's own, where peerpay runs in-process, PGlite included) and every PostgreSQL
// server process. With the load generator's own (bench/load.ts), this says where the machine's CPU
// goes per answer, and so how many answers per second the cores could give at most.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

export interface CpuTimes {
  /** Seconds of CPU (user and system) of this process. */
  peerpay: number;
  /** Seconds of CPU of all PostgreSQL server processes alive at the time. */
  postgres: number;
}

export const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** Seconds of CPU of every process named postgres (its server, background processes and backends), and of the backends that have exited. */
function postgresSeconds(): number {
  let ticks = 0;
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    if (name !== 'postgres') continue;
    // After the name: state is field 3; utime and stime are fields 14 and 15, and cutime and
    // cstime (16, 17) the time of children waited for: the server's backends that have exited.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return ticks / TICKS_PER_SECOND;
}

export function cpuTimes(): CpuTimes {
  const own = process.cpuUsage();
  return { peerpay: (own.user + own.system) / 1e6, postgres: postgresSeconds() };
}

/** CPU spent since `start`. */
export function cpuSince(start: CpuTimes): CpuTimes {
  const now = cpuTimes();
  return { peerpay: now.peerpay - start.peerpay, postgres: Math.max(0, now.postgres - start.postgres) };
}
