#!/usr/bin/env node
/**
 * The public surface of every publishable package as a reviewed artifact: an API report (Microsoft API Extractor)
 * per typed entry point of the package's published `exports`, committed under `packages/<pkg>/etc/`:
 * `<pkg>.api.md` for `.`, `<pkg>-<subpath>.api.md` for each further subpath with its own declarations (the React
 * entry of the widget is `widget-react.api.md`). A change to an exported name, signature or type shows as a diff
 * of these files in review.
 *
 *   pnpm api:check   fails (exit 1) when a report differs from the built declarations, naming the report;
 *   pnpm api:update  writes the reports anew (commit them with the change).
 *
 * Reads `dist/` (the emitted `.d.ts` files), so it builds every package first unless `--no-build` (CI runs it after
 * `pnpm test`, which builds them). Other packages of the workspace are external: a report lists what this package
 * exports, and names what it takes from a sibling by that sibling's package name.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Extractor, ExtractorConfig, ExtractorLogLevel, type IConfigFile } from '@microsoft/api-extractor';

const root = join(import.meta.dirname, '..');
const packagesDir = join(root, 'packages');
const update = process.argv.includes('--update');
const build = !process.argv.includes('--no-build');

interface Manifest {
  name: string;
  private?: boolean;
  exports?: Record<string, unknown>;
  publishConfig?: { exports?: Record<string, unknown> };
}

/** One typed entry point: its report's file name and the declaration file it starts from. */
interface EntryPoint {
  readonly report: string;
  readonly types: string;
}

/** The typed entry points of a package as published (`publishConfig.exports` when the workspace's point at src/). */
function entryPoints(dir: string, manifest: Manifest): EntryPoint[] {
  const short = manifest.name.replace(/^@domainkit\//, '');
  const exportsMap = manifest.publishConfig?.exports ?? manifest.exports ?? {};
  const seen = new Set<string>();
  const entries: EntryPoint[] = [];
  for (const [subpath, target] of Object.entries(exportsMap)) {
    const types = typeof target === 'object' && target !== null ? (target as { types?: string }).types : undefined;
    if (types === undefined || !types.endsWith('.d.ts') || seen.has(types)) continue;
    seen.add(types);
    const suffix = subpath === '.' ? '' : `-${subpath.replace(/^\.\//, '').replace(/\.js$/, '').replace(/\W+/g, '-')}`;
    entries.push({ report: `${short}${suffix}.api.md`, types: join(dir, types) });
  }
  return entries;
}

const packages = readdirSync(packagesDir)
  .map((name) => ({ dir: join(packagesDir, name) }))
  .map(({ dir }) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest }))
  .filter(({ manifest }) => manifest.private !== true);

if (build) {
  const filters = packages.flatMap(({ dir }) => ['--filter', `./${relative(root, dir)}`]);
  const built = spawnSync('pnpm', ['-r', ...filters, 'build'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

/**
 * A sibling is read as published, through the package's own `node_modules` link to its dist/ declarations (not the
 * workspace's src/ entry), and the link is kept as a path into `node_modules`, so API Extractor treats it as the
 * external package it is to a partner: the report names its types, it does not copy them.
 */
const siblingsOf = (dir: string): Record<string, string[]> =>
  Object.fromEntries(
    packages.map(({ manifest }) => [manifest.name, [join(dir, 'node_modules', manifest.name, 'dist/index.d.ts')]]),
  );

const scratch = mkdtempSync(join(tmpdir(), 'domainkit-api-'));
const changed: string[] = [];
const failed: string[] = [];
try {
  for (const { dir, manifest } of packages) {
    for (const entry of entryPoints(dir, manifest)) {
      if (!existsSync(entry.types)) {
        failed.push(`${manifest.name}: ${relative(root, entry.types)} is missing (build the package first)`);
        continue;
      }
      mkdirSync(join(dir, 'etc'), { recursive: true });
      const configObject: IConfigFile = {
        projectFolder: dir,
        newlineKind: 'lf',
        mainEntryPointFilePath: entry.types,
        compiler: {
          overrideTsconfig: {
            compilerOptions: {
              target: 'es2023',
              lib: ['es2023', 'dom', 'dom.iterable'],
              module: 'nodenext',
              moduleResolution: 'nodenext',
              strict: true,
              skipLibCheck: true,
              types: ['node'],
              paths: siblingsOf(dir),
              preserveSymlinks: true,
            },
            files: [entry.types],
          },
        },
        apiReport: {
          enabled: true,
          reportFolder: join(dir, 'etc'),
          reportTempFolder: scratch,
          reportFileName: entry.report,
        },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        messages: {
          // The report is about names and shapes; doc-comment syntax and release tags are not checked here.
          tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
          extractorMessageReporting: {
            default: { logLevel: ExtractorLogLevel.Warning },
            'ae-missing-release-tag': { logLevel: ExtractorLogLevel.None },
            'ae-forgotten-export': { logLevel: ExtractorLogLevel.None, addToApiReportFile: true },
            'ae-unresolved-link': { logLevel: ExtractorLogLevel.None },
            'ae-undocumented': { logLevel: ExtractorLogLevel.None },
          },
          compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Warning } },
        },
      };
      const config = ExtractorConfig.prepare({
        configObject,
        configObjectFullPath: undefined,
        packageJsonFullPath: join(dir, 'package.json'),
      });
      const result = Extractor.invoke(config, {
        localBuild: update,
        // In a check, the difference is printed: what changed, for the log of the failing run.
        printApiReportDiff: !update,
        messageCallback: (message) => {
          // "Analysis will use the bundled TypeScript version …", once per entry point.
          if (message.messageId === 'console-preamble') message.handled = true;
        },
      });
      const label = `${relative(root, join(dir, 'etc', entry.report))}`;
      if (!result.succeeded && !result.apiReportChanged) failed.push(`${label}: API Extractor reported errors`);
      if (result.apiReportChanged) changed.push(label);
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

if (failed.length > 0) {
  for (const line of failed) console.error(`api-report: ${line}`);
  process.exit(1);
}
if (changed.length > 0 && !update) {
  console.error(
    `\napi-report: the public API changed without its report:\n${changed.map((c) => `  ${c}`).join('\n')}\n` +
      'Review the change, then run `pnpm api:update` and commit the reports.',
  );
  process.exit(1);
}
console.log(update ? `api-report: ${changed.length} report(s) written.` : 'api-report: every report is current.');
