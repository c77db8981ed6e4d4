/**
 * `startSandbox`: the sandbox app listening on a port, as the demo launcher, end-to-end tests and the CLI run it.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { SERVER_FILE } from './admin-client.ts';
import { buildSandboxApp, requestBaseUrl, type SandboxApp } from './app.ts';
import { sandboxLogger } from './logger.ts';
import { applyServerTimeouts } from './http/hardening.ts';
import { resolveOptions, type StartSandboxOptions } from './options.ts';

/** A running sandbox. */
export interface RunningSandbox extends SandboxApp {
  /** Where it listens, `http://127.0.0.1:4010` (no trailing slash); the Partner API is at `{url}/api/partner/v1`. */
  readonly url: string;
  /** The base URL of `checkout_url` (the `publicUrl` option, else {@link url}). */
  readonly publicUrl: string;
  /** The port actually bound (useful with `port: 0`). */
  readonly port: number;
  readonly server: Server;
  /** Stops accepting connections, ends open ones, then closes the database. Safe to call twice. */
  close(): Promise<void>;
}

function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      reject(
        err.code === 'EADDRINUSE'
          ? new Error(`port ${port} on ${host} is already in use: choose another port (0 picks a free one)`, {
              cause: err,
            })
          : err,
      );
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    const force = setTimeout(() => server.closeAllConnections(), 2_000);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/**
 * Writes `{dataDir}/server.json` `{url, pid, started_at}`, so the admin CLI and client find a sandbox started with
 * `--port 0` from its data folder alone.
 */
function writeServerFile(dataDir: string, url: string): string {
  const path = join(dataDir, SERVER_FILE);
  writeFileSync(path, `${JSON.stringify({ url, pid: process.pid, started_at: new Date().toISOString() }, null, 2)}\n`, {
    mode: 0o600,
  });
  return path;
}

/** Removes the server file when it is still this process's. */
function removeServerFile(path: string): void {
  try {
    const info = JSON.parse(readFileSync(path, 'utf8')) as { pid?: number };
    if (info.pid === process.pid) rmSync(path, { force: true });
  } catch {
    // Already gone.
  }
}

/**
 * Starts the sandbox: prepares the data folder (first start: database, demo credential, inventory; later starts
 * reuse them) and listens.
 *
 * @param options - port (default 4010, 0 for a free port), host (default 127.0.0.1), dataDir (default
 *   `.data/sandbox`), databaseUrl (default `DATABASE_URL`), schema, publicUrl, headerPrefix, seed, logger, now.
 * @returns the running sandbox: `url`, `demo` credential, `db`, `close()`.
 * @throws {TypeError} for invalid options; {@link Error} when the port is taken or the database cannot be opened.
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const resolved = resolveOptions(options);
  const logger = sandboxLogger(options.logger);
  let publicUrl: string | undefined = resolved.publicUrl;
  const sandbox = await buildSandboxApp(resolved, logger, (req) => publicUrl ?? requestBaseUrl(req));
  const server = createServer(sandbox.app);
  applyServerTimeouts(server);
  try {
    await listen(server, resolved.port, resolved.host);
  } catch (err) {
    await sandbox.close();
    throw err;
  }
  const { port } = server.address() as AddressInfo;
  // Webhooks to this port on loopback would be the sandbox calling itself.
  sandbox.ownPorts.add(port);
  const url = `http://${urlHost(resolved.host)}:${port}`;
  publicUrl ??= url;
  const serverFile = writeServerFile(sandbox.dataDir, url);
  logger.info(
    { url, key_id: sandbox.demo.key_id, credentials_file: sandbox.credentialsFile, database: sandbox.databaseKind },
    'sandbox listening',
  );

  let closing: Promise<void> | undefined;
  return {
    ...sandbox,
    url,
    publicUrl,
    port,
    server,
    close() {
      closing ??= (async () => {
        await closeServer(server);
        removeServerFile(serverFile);
        await sandbox.close();
        logger.info('sandbox stopped');
      })();
      return closing;
    },
  };
}
