/**
 * Vitest setup file of every project that starts a sandbox or a BFF in-process: no input of the tests (the fuzz
 * suite included) may reach the database's safety net. The servers publish each defect (a value the input policy let
 * through that the database refused, logged `defect: true`) on protocol's DEFECT_CHANNEL diagnostics channel,
 * whatever logger they were given; this file records them and fails the test during which one was published (or the
 * file, for one published outside a test: in a `beforeAll`, or by background work after the last test).
 *
 * Registered as a `setupFiles` entry by the projects of test/vitest.all.config.ts that start servers (bff, sandbox,
 * examples/express-app, e2e). A server started as a child process (the CLIs) publishes in its own process: the tests
 * start every one through `startProcess` of ./child-process.ts, which reads its output line by line and publishes
 * each line marked `defect: true` on the same channel here, the line quoted in the message; after the file's own
 * hooks, whatever child is still running is stopped and its output read to the end before the last check.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { DEFECT_CHANNEL, type DefectReport } from '@domainkit/protocol';
import { afterAll, afterEach } from 'vitest';
import { stopAllProcesses } from './child-process.ts';

const seen: DefectReport[] = [];
const record = (message: unknown): void => void seen.push(message as DefectReport);
subscribe(DEFECT_CHANNEL, record);

function describeDefects(found: readonly DefectReport[]): string {
  const lines = found.map((d) => `  ${d.component} ${d.route}: SQLSTATE ${d.sqlstate ?? '?'} ${d.message}`);
  return `${found.length} input(s) reached the database's safety net (logged defect: true); refuse them at input validation:\n${lines.join('\n')}`;
}

afterEach(() => {
  const found = seen.splice(0);
  if (found.length > 0) throw new Error(describeDefects(found));
});

afterAll(async () => {
  await stopAllProcesses();
  unsubscribe(DEFECT_CHANNEL, record);
  const found = seen.splice(0);
  if (found.length > 0) throw new Error(describeDefects(found));
});
