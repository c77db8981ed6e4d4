// Types of options.mjs, for the bench that imports it from TypeScript.
import type { BffHandlerOptions } from '@domainkit/bff/handler';

export declare const BARE_ANSWER: string;
export declare function sameAnswer(
  env: Record<string, string | undefined>,
): { body: string; headers: () => Record<string, string> } | undefined;
export declare function bffOptions(env: Record<string, string | undefined>, basePath?: string): BffHandlerOptions;
