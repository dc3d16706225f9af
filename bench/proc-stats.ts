import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux nearly everywhere). */
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** User + system CPU time of the whole process (all threads), in microseconds. */
export function readCpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces; the fields after it are space-separated numbers.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the whole line: 11 and 12 after the state field (index 0).
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1_000_000) / TICKS_PER_SECOND;
}

function readStatusKilobytes(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match ? Number(match[1]) : 0;
}

/** Peak resident set size since start or since the last resetPeakRss, in MB. */
export function readPeakRssMb(pid: number): number {
  return readStatusKilobytes(pid, 'VmHWM') / 1024;
}

export function readRssMb(pid: number): number {
  return readStatusKilobytes(pid, 'VmRSS') / 1024;
}

/**
 * Resets VmHWM to the current RSS (Linux ≥ 4.0, `echo 5 > /proc/<pid>/clear_refs`), so each cell reports its
 * own peak. Answers false when the kernel refuses: the peak is then the process's lifetime peak.
 */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** The load averages of /proc/loadavg (1, 5, 15 minutes). */
export function readLoadAverage(): [number, number, number] {
  const [one, five, fifteen] = readFileSync('/proc/loadavg', 'utf8').split(' ').map(Number);
  return [one, five, fifteen];
}
