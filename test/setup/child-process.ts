/**
 * A command the tests run as a child process (the `domainkit-bff` or `domainkit-sandbox` CLI, a server or a
 * one-shot command), watched for defects: every line it writes to stdout or stderr is read as it arrives, and a log
 * line marked `defect: true` (a value the input policy let through that the database refused) is published on
 * protocol's DEFECT_CHANNEL in the test process, exactly as an in-process server publishes it. The setup file
 * `fail-on-defects.ts` then fails the test during which it arrived, naming the line: one failure path for servers in
 * the test process and in child processes.
 *
 * Every test that starts a CLI starts it through {@link startProcess}; a line arriving after its test ended fails
 * the file ({@link stopAllProcesses}, run by the setup file after the file's own hooks, stops what is left and reads
 * everything written up to the exit).
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { channel } from 'node:diagnostics_channel';
import { fileURLToPath } from 'node:url';
import { DEFECT_CHANNEL, type DefectReport } from '@domainkit/protocol';

const defects = channel(DEFECT_CHANNEL);

/** A command started by {@link startProcess}. */
export interface WatchedProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** Everything it wrote to stdout so far. */
  stdout(): string;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** stdout and stderr, interleaved as they arrived. */
  output(): string;
  /** Whether it has exited (for whatever reason). */
  exited(): boolean;
  /** Resolves with its exit code (`null` after a signal) once it exited and both streams were read to their end. */
  readonly closed: Promise<number | null>;
  /**
   * Resolves with the `url` of its first JSON log line whose `msg` is `message` (`"sandbox listening"`).
   * @throws {Error} with its output when it exits first, or after `timeoutMs` (default 60,000 ms).
   */
  logged(message: string, timeoutMs?: number): Promise<string>;
  /** Sends `signal` (default SIGKILL) unless it has exited already; resolves once it closed (see `closed`). */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const running = new Set<WatchedProcess>();

/**
 * The DefectReport of one line of a child's output, or `undefined` when it reports no defect: a JSON log line with
 * `defect: true` (the sandbox's `logDefect`, the BFF's error handler; both CLIs log JSON lines when not on a
 * terminal). The message quotes the whole line.
 */
export function defectOfLine(line: string, component: DefectReport['component']): DefectReport | undefined {
  const text = line.trim();
  if (!text.startsWith('{') || !text.includes('"defect":true')) return undefined;
  let entry: { defect?: unknown; route?: unknown; method?: unknown; sqlstate?: unknown; db_message?: unknown };
  try {
    entry = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (entry.defect !== true) return undefined;
  return {
    component,
    route: typeof entry.route === 'string' ? entry.route : String(entry.method ?? '(route not logged)'),
    sqlstate: typeof entry.sqlstate === 'string' ? entry.sqlstate : undefined,
    message: `${String(entry.db_message ?? '')} [child process log line: ${text}]`,
  };
}

/**
 * Starts `command args` as a child process with exactly `env` (plus PATH when it has none) and watches its output
 * for defects (module comment). `component` names the server it runs, for the failure message; `cwd` is its working
 * folder; `group: true` starts it in a process group of its own, which `stop` signals whole (a bin run through a
 * shell or npx, whose server is a grandchild).
 */
export function startProcess(
  command: string,
  args: readonly string[],
  options: { env: NodeJS.ProcessEnv; component: DefectReport['component']; cwd?: string; group?: boolean },
): WatchedProcess {
  const child = spawn(command, args, {
    env: { PATH: process.env.PATH ?? '', ...options.env },
    cwd: options.cwd,
    detached: options.group === true,
    stdio: 'pipe',
  });
  child.stdin.end();
  let stdout = '';
  let stderr = '';
  let output = '';
  for (const [stream, append] of [
    [child.stdout, (text: string) => (stdout += text)],
    [child.stderr, (text: string) => (stderr += text)],
  ] as const) {
    let partial = '';
    const scan = (line: string) => {
      const report = defectOfLine(line, options.component);
      if (report !== undefined) defects.publish(report);
    };
    stream.setEncoding('utf8');
    stream.on('data', (text: string) => {
      append(text);
      output += text;
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) scan(line);
    });
    stream.on('end', () => scan(partial));
  }
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const watched: WatchedProcess = {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    output: () => output,
    exited,
    closed,
    logged(message, timeoutMs = 60_000) {
      const find = () =>
        output
          .split('\n')
          .filter((l) => l.startsWith('{') && l.endsWith('}'))
          .map((l) => JSON.parse(l) as { msg?: string; url?: string })
          .find((l) => l.msg === message && l.url !== undefined)?.url;
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => done(new Error(`no "${message}" after ${timeoutMs} ms:\n${output}`)), timeoutMs);
        const check = () => {
          const url = find();
          if (url !== undefined) done(undefined, url);
        };
        const onClose = () => done(new Error(`exited (${child.exitCode}) before "${message}":\n${output}`));
        function done(error: Error | undefined, url?: string) {
          clearTimeout(timer);
          child.stdout.off('data', check);
          child.stderr.off('data', check);
          child.off('close', onClose);
          if (error === undefined) resolve(url!);
          else reject(error);
        }
        child.stdout.on('data', check);
        child.stderr.on('data', check);
        child.once('close', onClose);
        check();
      });
    },
    async stop(signal = 'SIGKILL') {
      if (options.group === true && child.pid !== undefined) {
        try {
          process.kill(-child.pid, signal); // the group outlives its leader when a grandchild still runs
        } catch {
          // the group is gone already
        }
      } else if (!exited()) child.kill(signal);
      await closed;
    },
  };
  running.add(watched);
  void closed.then(() => running.delete(watched));
  return watched;
}

/** SIGKILLs every watched process still running and waits until each one's output was read to its end. */
export async function stopAllProcesses(): Promise<void> {
  await Promise.all([...running].map((p) => p.stop()));
}

/** The command line of each server (its `bin`, run from source) and the `msg` of its "listening" log line. */
const CLIS = {
  bff: {
    path: fileURLToPath(new URL('../../packages/bff/src/cli.ts', import.meta.url)),
    listening: 'domainkit BFF listening',
  },
  sandbox: {
    path: fileURLToPath(new URL('../../packages/sandbox/src/cli.ts', import.meta.url)),
    listening: 'sandbox listening',
  },
} as const;

/** A server started by {@link startCli}. */
export interface CliProcess extends WatchedProcess {
  /** Its base URL, from its "listening" log line. */
  readonly url: string;
}

/**
 * Runs `domainkit-bff` or `domainkit-sandbox` with `args` and exactly `env` (plus PATH), watched for defects; does
 * not wait (a one-shot command: await `closed`).
 */
export function spawnCli(
  component: DefectReport['component'],
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): WatchedProcess {
  return startProcess(process.execPath, [CLIS[component].path, ...args], { env, component });
}

/**
 * Starts a server with {@link spawnCli} and resolves once it logs that it listens.
 * @throws {Error} with its output when it exits before listening (the message starts `exited (<code>)`).
 */
export async function startCli(
  component: DefectReport['component'],
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<CliProcess> {
  const child = spawnCli(component, args, env);
  const url = await child.logged(CLIS[component].listening);
  return Object.assign(child, { url });
}
