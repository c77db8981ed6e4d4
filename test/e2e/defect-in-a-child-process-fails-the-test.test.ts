/**
 * Finding (issue 26, must-show 4): a server a test starts as a child process (the `domainkit-bff` and
 * `domainkit-sandbox` CLIs) publishes its defects on the diagnostics channel of its own process, so an input that
 * reached its database's safety net (logged `defect: true`) failed no test. Every child is now started through the
 * shared helper of test/setup/child-process.ts, which reads its output line by line and publishes each defect line
 * in the test process, where fail-on-defects.ts fails the test during which it arrived, quoting the line.
 *
 * Runs the fixture tests of test/setup/fixtures in a vitest of its own: the one whose child logs a defect fails
 * naming it; the one whose child logs an ordinary error passes.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const vitest = join(dirname(createRequire(join(root, 'package.json')).resolve('vitest/package.json')), 'vitest.mjs');
const config = fileURLToPath(new URL('../setup/fixtures/vitest.config.ts', import.meta.url));

it('fails the test during which a child process logged a defect, quoting the line, and no other', async () => {
  const run = await promisify(execFile)(
    process.execPath,
    [vitest, 'run', '--config', config, '--reporter', 'verbose'],
    {
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', CI: '1' },
    },
  ).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code,
      output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
    }),
  );
  const { code, output } = run;

  expect(code, output).toBe(1);
  expect(output).toMatch(/× .*> a child that logs a defect/);
  expect(output).toMatch(/✓ .*> a child that logs an ordinary error/);
  expect(output).toContain("1 input(s) reached the database's safety net (logged defect: true)");
  expect(output).toContain('sandbox GET /api/partner/v1/orders: SQLSTATE 22003');
  expect(output).toContain('"db_message":"value \\"1099511627776\\" is out of range for type integer"');
});
