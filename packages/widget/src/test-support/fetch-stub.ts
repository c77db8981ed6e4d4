/**
 * A hand-driven `fetch` for the widget's tests: every call is recorded and stays pending until the test
 * answers it, so each state (loading, results, error...) can be observed deterministically.
 */
import { cleanup } from './fixtures.ts';

/** One recorded call of the stub. */
export interface FetchCall {
  readonly url: URL;
  readonly method: string;
  readonly headers: Headers;
  /** The request body parsed as JSON, if any. */
  readonly json: unknown;
  readonly signal: AbortSignal | undefined;
  /** Answers with a JSON body (resolves the `fetch` promise, even if the signal aborted meanwhile). */
  respond(status: number, body: unknown, headers?: Record<string, string>): void;
  /** Answers with a raw text body. */
  respondText(status: number, body: string, headers?: Record<string, string>): void;
  /** Rejects like a network failure (`TypeError: Failed to fetch`). */
  failNetwork(): void;
}

export interface FetchStubOptions {
  /**
   * When true (default), aborting a call's signal rejects its promise with an `AbortError`, as the real
   * `fetch` does. When false, the promise stays pending until answered: this simulates an answer that
   * arrives anyway, to test that stale answers are dropped.
   */
  readonly honourAbort?: boolean;
}

/** Replaces `globalThis.fetch` until {@link FetchStub.restore}. */
export class FetchStub {
  readonly calls: FetchCall[] = [];
  readonly #original = globalThis.fetch;
  readonly #honourAbort: boolean;
  #waiters: Array<{ index: number; resolve: (call: FetchCall) => void }> = [];

  constructor(options: FetchStubOptions = {}) {
    this.#honourAbort = options.honourAbort ?? true;
    globalThis.fetch = this.#fetch;
  }

  restore(): void {
    globalThis.fetch = this.#original;
  }

  /** Resolves with call number `index` (0-based) once it has been made. */
  call(index: number): Promise<FetchCall> {
    const existing = this.calls[index];
    if (existing) return Promise.resolve(existing);
    return new Promise((resolve) => this.#waiters.push({ index, resolve }));
  }

  readonly #fetch = (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> =>
    new Promise<Response>((resolve, reject) => {
      const signal = init.signal ?? undefined;
      const reply = (status: number, body: string, headers: Record<string, string>): void =>
        resolve(new Response(status === 204 ? null : body, { status, headers }));
      const call: FetchCall = {
        url: new URL(String(input instanceof Request ? input.url : input), document.baseURI),
        method: (init.method ?? 'GET').toUpperCase(),
        headers: new Headers(init.headers),
        json: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
        signal,
        respond: (status, body, headers = {}) =>
          reply(status, JSON.stringify(body), { 'Content-Type': 'application/json', ...headers }),
        respondText: (status, body, headers = {}) => reply(status, body, headers),
        failNetwork: () => reject(new TypeError('Failed to fetch')),
      };
      if (this.#honourAbort && signal) {
        if (signal.aborted) return reject(new DOMException('The operation was aborted.', 'AbortError'));
        signal.addEventListener('abort', () => reject(new DOMException('The operation was aborted.', 'AbortError')), {
          once: true,
        });
      }
      this.calls.push(call);
      const index = this.calls.length - 1;
      const ready = this.#waiters.filter((w) => w.index === index);
      this.#waiters = this.#waiters.filter((w) => w.index !== index);
      for (const waiter of ready) waiter.resolve(call);
    });
}

/**
 * For the tests of the enclosing `describe`: before each, a fresh {@link FetchStub} handed to `use`; after each,
 * the fixtures removed and the `fetch` of before the test put back (also when a test swapped in a stub of its own).
 */
export function useFetchStub(use: (stub: FetchStub) => void): void {
  let before: typeof fetch;
  beforeEach(() => {
    before = globalThis.fetch;
    use(new FetchStub());
  });
  afterEach(() => {
    cleanup();
    globalThis.fetch = before;
  });
}
