/**
 * The standalone `domainkit-bff` command as a child process, for the tests of what happens to the process itself
 * (a crash, a restart, a cut database connection).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));

/** A running `domainkit-bff`. */
export interface CliProcess {
  readonly process: ChildProcessWithoutNullStreams;
  /** Its base URL, from its "listening" log line. */
  readonly url: string;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Whether it has exited (for whatever reason). */
  exited(): boolean;
  /** SIGKILLs it unless it has exited already. */
  stop(): void;
}

/**
 * Starts the CLI with exactly `env` (plus PATH) and resolves once it logs that it listens.
 * @throws {Error} with its output when it exits before listening.
 */
export async function startCli(env: Record<string, string>): Promise<CliProcess> {
  const child = spawn(process.execPath, [CLI], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: 'pipe' });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const url = await new Promise<string>((resolve, reject) => {
    const onData = () => {
      const line = output
        .split('\n')
        .filter((l) => l.startsWith('{') && l.endsWith('}'))
        .map((l) => JSON.parse(l) as { msg?: string; url?: string })
        .find((l) => l.msg === 'domainkit BFF listening');
      if (line?.url) {
        child.stdout.off('data', onData);
        resolve(line.url);
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the BFF exited (${code}) before listening:\n${output}`)));
  });
  return {
    process: child,
    url,
    output: () => output,
    exited,
    stop: () => {
      if (!exited()) child.kill('SIGKILL');
    },
  };
}
