#!/usr/bin/env node
/**
 * `pnpm lint:openapi`: lints both OpenAPI documents with Redocly's recommended ruleset (`@redocly/cli lint`): the
 * Partner API's (`@domainkit/protocol`, served by the sandbox at `/api/partner/openapi.json`) and the Public API's
 * (the sandbox's `/openapi.json`). Both are generated from the zod schemas, so they are written to a temporary
 * folder first. Exits non-zero on any error or warning.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildPartnerApiDocument } from '../packages/protocol/src/openapi/partner-api.ts';
import { buildOpenApiDocument } from '../packages/sandbox/src/public-api/openapi.ts';

const root = join(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'domainkit-openapi-'));
try {
  const files = {
    'partner-api.openapi.json': buildPartnerApiDocument({ serverUrl: 'http://127.0.0.1:4010' }),
    'public-api.openapi.json': buildOpenApiDocument('http://127.0.0.1:4010'),
  };
  for (const [name, document] of Object.entries(files)) writeFileSync(join(dir, name), JSON.stringify(document));
  const redocly = join(root, 'node_modules', '.bin', 'redocly');
  const args = [
    'lint',
    '--extends',
    'recommended',
    '--max-problems',
    '100',
    ...Object.keys(files).map((f) => join(dir, f)),
  ];
  const result = spawnSync(redocly, args, {
    stdio: 'pipe',
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  const warned = /warning/i.test(`${result.stdout}${result.stderr}`.replace(/0 warnings?/g, ''));
  if (result.status !== 0 || warned) {
    console.error('openapi: Redocly reported problems (above).');
    process.exitCode = 1;
  } else {
    console.log(`openapi: ${Object.keys(files).length} documents clean (Redocly recommended)`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
