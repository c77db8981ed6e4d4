/** Modules the widget loads on first use (the order flow, the siblings list). */

/**
 * Wraps a dynamic `import()` so it runs once: later calls share its promise. A failed load (network) is
 * forgotten, so the next call tries again.
 */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}

/** Runs `load` when the browser is idle (a module the element will likely need), ignoring a failure. */
export function prefetch(load: () => Promise<unknown>): void {
  const idle = globalThis.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 200));
  idle(() => void load().catch(() => undefined));
}
