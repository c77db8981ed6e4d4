/**
 * The CPU time a server spends, read from Linux's `/proc`: the process that listens on a loopback port, with every
 * process it started (a `next start` or miniflare host runs its server in a child). A bench divides it by the answers
 * given to get the server's own cost per answer, apart from the load generator that shares the machine's cores.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Clock ticks per second of `utime`/`stime` in `/proc/<pid>/stat` (`getconf CLK_TCK`: 100 on Linux's x86-64 and arm64). */
const TICKS_PER_SECOND = 100;

/** The fields of `/proc/<pid>/stat` after the command name: `[state, ppid, …]` (proc(5), from field 3 on). */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined; // the process ended
  }
}

function pids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

/** The pid whose open sockets include the one listening on 127.0.0.1:`port` (TCP, IPv4), or undefined. */
function listenerOf(port: number): number | undefined {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    // local_address rem_address st … inode: 0100007F:PORT, state 0A is LISTEN.
    if (f[1] === `0100007F:${hexPort}` && f[3] === '0A' && f[9] !== undefined) inodes.add(f[9]);
  }
  if (inodes.size === 0) return undefined;
  for (const pid of pids()) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode !== undefined && inodes.has(inode)) return pid;
    }
  }
  return undefined;
}

/**
 * A reader of the CPU time (seconds, user + system, all threads) used so far by the server listening on
 * 127.0.0.1:`port` and the processes below it, or undefined where `/proc` cannot tell (not Linux, or no listener of
 * this user's). Processes that end between two reads drop out of the sum: read around a measurement, not across a
 * restart.
 */
export function serverCpu(port: number): (() => number) | undefined {
  let root: number | undefined;
  try {
    root = listenerOf(port);
  } catch {
    return undefined;
  }
  if (root === undefined) return undefined;
  const server = root;
  return () => {
    const children = new Map<number, number[]>();
    const ticks = new Map<number, number>();
    for (const pid of pids()) {
      const f = statFields(pid);
      if (f === undefined) continue;
      const parent = Number(f[1]);
      children.set(parent, [...(children.get(parent) ?? []), pid]);
      // utime and stime: fields 14 and 15 of proc(5), 11 and 12 after the command name.
      ticks.set(pid, Number(f[11]) + Number(f[12]));
    }
    let sum = 0;
    const queue = [server];
    while (queue.length > 0) {
      const pid = queue.pop()!;
      sum += ticks.get(pid) ?? 0;
      queue.push(...(children.get(pid) ?? []));
    }
    return sum / TICKS_PER_SECOND;
  };
}
