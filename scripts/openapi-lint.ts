// Lints the service's OpenAPI document (the one GET /api/v1/openapi.json serves, built here without a
// database) with Redocly CLI's recommended rules and redocly.yaml, and fails on any error OR warning:
// Redocly itself exits 0 on warnings, so its JSON report is read instead.
//   npm run openapi:lint                      lint (CI runs this)
//   npm run openapi:lint -- --out FILE        also keep the document in FILE
// Redocly is installed from the npm registry (@redocly/cli) and runs offline: its usage telemetry and
// its update check (a request to the npm registry) are turned off below.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { offlineOpenApiDocument } from './lib/openapi-document.ts';

interface Problem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: Array<{ pointer: string }>;
}
interface Report {
  totals: { errors: number; warnings: number; ignored: number };
  version: string;
  problems: Problem[];
}

const root = path.join(import.meta.dirname, '..');
const outIndex = process.argv.indexOf('--out');
const keep = outIndex >= 0 ? process.argv[outIndex + 1] : undefined;

const directory = await mkdtemp(path.join(tmpdir(), 'concord-openapi-'));
const file = keep ? path.resolve(keep) : path.join(directory, 'openapi.json');
try {
  await writeFile(file, `${JSON.stringify(await offlineOpenApiDocument(), null, 2)}\n`);
  const cli = path.join(path.dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
  const run = spawnSync(process.execPath, [cli, 'lint', file, '--config', path.join(root, 'redocly.yaml'), '--format=json'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  let report: Report;
  try {
    report = JSON.parse(run.stdout) as Report;
  } catch {
    process.stderr.write(run.stdout + run.stderr);
    throw new Error(`redocly lint exited with ${String(run.status)} without a JSON report`);
  }
  for (const problem of report.problems) {
    process.stdout.write(
      `${problem.severity === 'error' ? 'error' : 'warning'} ${problem.ruleId}: ${problem.message}\n    at ${problem.location[0]?.pointer ?? '?'}\n`,
    );
  }
  const { errors, warnings, ignored } = report.totals;
  process.stdout.write(
    `OpenAPI lint (Redocly CLI ${report.version}, recommended + redocly.yaml): ${errors} errors, ${warnings} warnings, ${ignored} ignored\n`,
  );
  if (keep) process.stdout.write(`document kept in ${path.relative(process.cwd(), file)}\n`);
  if (errors + warnings > 0 || run.status !== 0) process.exitCode = 1;
} finally {
  await rm(directory, { recursive: true, force: true });
}
