/**
 * A pass-through HTTP proxy in front of a marketplace that records every answer (method, path, status, JSON body,
 * headers),
 * so a suite run through it can check each answer afterwards (here: against the Partner API's OpenAPI document).
 * Requests go through byte for byte (signatures cover method, path, query and body, not the host).
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** One recorded answer. */
export interface ProxiedAnswer {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly json: unknown;
  /** Response headers by lowercase name (several values of one header joined with `, `). */
  readonly headers: Readonly<Record<string, string>>;
}

/** A running recording proxy. */
export interface RecordingProxy {
  readonly url: string;
  readonly answers: ProxiedAnswer[];
  close(): Promise<void>;
}

/** Starts a proxy on 127.0.0.1:0 forwarding to `target()` (read per request, so it may start later). */
export async function startRecordingProxy(target: () => string): Promise<RecordingProxy> {
  const answers: ProxiedAnswer[] = [];
  const server: Server = createServer((req, res) => {
    const upstream = new URL(target());
    const forward = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const raw = Buffer.concat(chunks);
          const text = (answer.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          const path = new URL(req.url ?? '/', 'http://proxy').pathname;
          const headers = Object.fromEntries(
            Object.entries(answer.headers).map(([name, value]) => [
              name,
              Array.isArray(value) ? value.join(', ') : String(value),
            ]),
          );
          answers.push({ method: req.method ?? 'GET', path, status: answer.statusCode ?? 0, json, headers });
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(raw);
        });
      },
    );
    forward.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    answers,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
