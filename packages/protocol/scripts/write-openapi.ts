/**
 * Writes `dist/partner-api.openapi.json` (run by `pnpm build` after tsc): the Partner API's OpenAPI 3.1 document,
 * shipped in the package as `@domainkit/protocol/partner-api.openapi.json`.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildPartnerApiDocument } from '../src/openapi/partner-api.ts';

const file = join(import.meta.dirname, '..', 'dist', 'partner-api.openapi.json');
await writeFile(file, `${JSON.stringify(buildPartnerApiDocument(), null, 2)}\n`);
