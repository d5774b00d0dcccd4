import { closeSync, existsSync, openSync, readSync } from 'node:fs';

/**
 * Reads how much CPU time one thread of this process has used so far. The matcher's watchdog uses
 * it to charge a rule for the CPU its thread actually got, not for the wall-clock time that passed
 * while other processes had the cores.
 */
export interface ThreadCpuTimeReader {
  /** Milliseconds the thread `tid` has spent on a CPU since it started; null when it cannot be read. */
  read(tid: number): number | null;
}

/**
 * Clock ticks per second of the `utime`/`stime` fields in `/proc/.../stat`: USER_HZ, which the
 * Linux ABI fixes at 100 on the architectures Node runs on (`getconf CLK_TCK`).
 */
const USER_HZ = 100;

/** Longer than either file's content (`schedstat`: three numbers; `stat`: about 300 characters). */
const READ_BYTES = 1024;

type Parse = (content: string) => number | null;

/** `schedstat`: nanoseconds on CPU, nanoseconds waiting to run, time slices. */
const parseSchedstat: Parse = (content) => {
  const onCpuNs = Number(content.slice(0, content.indexOf(' ')));
  return Number.isFinite(onCpuNs) && onCpuNs >= 0 ? onCpuNs / 1e6 : null;
};

/**
 * `stat`: `utime` and `stime` (fields 14 and 15) in clock ticks, so 10 ms steps. The command name
 * (field 2) is in parentheses and may itself hold spaces or parentheses, so fields are counted from
 * the last `)`.
 */
const parseStat: Parse = (content) => {
  const fields = content.slice(content.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[14 - 3]) + Number(fields[15 - 3]);
  return Number.isFinite(ticks) && ticks >= 0 ? (ticks * 1000) / USER_HZ : null;
};

/**
 * Linux: reads `<procRoot>/self/task/<tid>/schedstat` (nanosecond resolution), or `stat` on kernels
 * built without scheduler statistics. Each read opens, reads and closes the file (a few
 * microseconds), so nothing is left open when a thread is replaced.
 */
export class ProcThreadCpuTime implements ThreadCpuTimeReader {
  private readonly buffer = Buffer.alloc(READ_BYTES);

  constructor(
    private readonly procRoot: string,
    private readonly file: 'schedstat' | 'stat',
  ) {}

  read(tid: number): number | null {
    if (!Number.isInteger(tid) || tid <= 0) return null;
    let fd: number | undefined;
    try {
      fd = openSync(`${this.procRoot}/self/task/${tid}/${this.file}`, 'r');
      const length = readSync(fd, this.buffer, 0, READ_BYTES, 0);
      const content = this.buffer.toString('latin1', 0, length);
      return this.file === 'schedstat' ? parseSchedstat(content) : parseStat(content);
    } catch {
      // The thread has exited, or /proc is not what it should be: no reading, the caller falls back.
      return null;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }
}

/**
 * The reader for this host, or null where threads' CPU time cannot be read this way (macOS,
 * Windows, a Linux without /proc mounted): the matcher then budgets wall-clock time, as it did
 * before it could read CPU time.
 */
export function platformThreadCpuTime(procRoot = '/proc'): ThreadCpuTimeReader | null {
  if (!existsSync(`${procRoot}/self/task`)) return null;
  if (existsSync(`${procRoot}/thread-self/schedstat`)) return new ProcThreadCpuTime(procRoot, 'schedstat');
  if (existsSync(`${procRoot}/thread-self/stat`)) return new ProcThreadCpuTime(procRoot, 'stat');
  return null;
}
