// The README's quickstart, run as written, and every example's documented command.
//
// The quickstart: every ```bash block between `<!-- quickstart` and `<!-- /quickstart -->` in README.md,
// in order, as one `bash -euo pipefail` script, against a real server process started the way the
// section's one `sh` block (`npm start`) would: NODE_ENV=development on a fresh database, so the first-run
// admin exists and its file is written. Only what the README itself makes a variable is set: its
// `export CONCORD_URL=…` and `export RECEIVER_PORT=…` lines get this run's ports, and DATA_DIR (which the
// README reads as `${DATA_DIR:-.data}`) is the server's temporary one. The script runs in a directory that
// mirrors the repository root (its directories and package files as symbolic links), so the files it writes
// (webhooks.log, dataset.jsonl, dataset.zip) do not land in, or overwrite anything of, the working tree.
//
// The examples: each examples/*.ts header's `npx tsx examples/…` line is run as written, with the
// variables it names set to this run's values.
import AdmZip from 'adm-zip';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { databaseNameOf, templateName, withDatabase } from '../helpers/database-names.ts';
import { PASSWORD, uniqueEmail } from '../helpers/factories.ts';
import { freePort } from '../helpers/ports.ts';
import { spawnServer, type ServerProcess } from '../helpers/server-process.ts';

const root = path.resolve(import.meta.dirname, '../..');

/** The quickstart section of the README: its bash blocks in order, and its other blocks. */
function quickstartBlocks(readme: string): { bash: string[]; other: Array<{ info: string; body: string }> } {
  const start = readme.indexOf('<!-- quickstart');
  const end = readme.indexOf('<!-- /quickstart -->');
  if (start < 0 || end < start) throw new Error('README.md has no <!-- quickstart … --> … <!-- /quickstart --> section');
  const bash: string[] = [];
  const other: Array<{ info: string; body: string }> = [];
  for (const match of readme.slice(start, end).matchAll(/^```([^\n]*)\n([\s\S]*?)^```[ \t]*$/gm)) {
    const info = (match[1] ?? '').trim();
    const body = match[2] ?? '';
    if (info === 'bash') bash.push(body);
    else other.push({ info, body });
  }
  return { bash, other };
}

/** Replaces the value of the script's one `export NAME=value` line, after checking what it documented. */
function setExport(script: string, name: string, documented: string, value: string): string {
  const lines = script.split('\n').filter((line) => line.startsWith(`export ${name}=`));
  expect(lines, `exactly one "export ${name}=" line in the quickstart`).toHaveLength(1);
  expect(lines[0]?.split(/\s+#/)[0]?.trim()).toBe(`export ${name}=${documented}`);
  return script.replace(`export ${name}=${documented}`, `export ${name}=${value}`);
}

/**
 * The commands an example's header documents: its comment lines indented by three spaces (a trailing `\`
 * continues one), without their leading VAR=value assignments and [optional] arguments.
 */
function documentedCommands(source: string): Array<{ command: string; variables: string[] }> {
  const lines = source.split('\n');
  const header = lines.slice(
    0,
    lines.findIndex((line) => !line.startsWith('//')),
  );
  const joined = header
    .map((line) => line.slice(2))
    .join('\n')
    .replace(/\\\n\s*/g, ' ');
  return joined
    .split('\n')
    .filter((line) => line.startsWith('   '))
    .map((line) => {
      let rest = line.trim();
      const variables: string[] = [];
      for (let m = rest.match(/^([A-Z_]+)=(?:<[^>]*>|\S+)\s+/); m; m = rest.match(/^([A-Z_]+)=(?:<[^>]*>|\S+)\s+/)) {
        variables.push(m[1] ?? '');
        rest = rest.slice(m[0].length);
      }
      return { command: rest.replace(/\s*\[[^\]]*\]/g, '').trim(), variables };
    });
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A bash script in its own process group (killed whole at the end, background jobs included). */
function runBash(
  script: string,
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; stdin?: string; onStdout?: (text: string) => void },
): Promise<Run> {
  const child = spawn('bash', ['-euo', 'pipefail', '-c', script], { cwd: options.cwd, env: options.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
    options.onStdout?.(stdout);
  });
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdin.end(options.stdin ?? '');
  const killGroup = () => {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // the group is gone already
    }
  };
  const timer = setTimeout(() => {
    stderr += `\n[killed after ${options.timeoutMs} ms]`;
    killGroup();
  }, options.timeoutMs);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      killGroup(); // a background job the script left running
      resolve({ code, stdout, stderr });
    }),
  );
}

const explain = (run: Run, server: ServerProcess) => `stdout:\n${run.stdout}\nstderr:\n${run.stderr}\nserver:\n${server.output().slice(-4_000)}`;

async function adminQuery(base: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: withDatabase(base, 'postgres') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describe('the README quickstart and the examples, run as written', () => {
  const base = inject('databaseUrl');
  const database = `${databaseNameOf(base)}_qs_${process.pid}`;
  let databaseUrl: string;
  let dataDir: string;
  let mirror: string;
  let server: ServerProcess;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    await adminQuery(base, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await adminQuery(base, `CREATE DATABASE "${database}" TEMPLATE "${templateName(databaseNameOf(base))}"`);
    databaseUrl = withDatabase(base, database);
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'concord-quickstart-data-'));
    mirror = await mkdtemp(path.join(os.tmpdir(), 'concord-quickstart-root-'));
    // The repository root as the commands see it: every directory, and the package files npx and tsx read.
    for (const entry of await readdir(root, { withFileTypes: true })) {
      const wanted = entry.isDirectory()
        ? !['.git', '.data'].includes(entry.name)
        : ['package.json', 'package-lock.json', 'tsconfig.json'].includes(entry.name);
      if (wanted) await symlink(path.join(root, entry.name), path.join(mirror, entry.name));
    }
    // As `npm start` in development, but on a fresh database of its own and a temporary DATA_DIR.
    server = await spawnServer(databaseUrl, { NODE_ENV: 'development', DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    env = {};
    for (const [key, value] of Object.entries(process.env)) {
      if (
        value !== undefined &&
        !key.startsWith('VITEST') &&
        !key.startsWith('CONCORD_') &&
        !['DATABASE_URL', 'DATA_DIR', 'RECEIVER_PORT', 'NODE_ENV'].includes(key)
      )
        env[key] = value;
    }
  }, 120_000);

  afterAll(async () => {
    if (server) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    await adminQuery(base, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await rm(dataDir, { recursive: true, force: true });
    await rm(mirror, { recursive: true, force: true });
  });

  const serverUrl = () => server.url.replace('127.0.0.1', 'localhost');

  async function api<T>(method: string, pathname: string, credential: string | null, body?: unknown): Promise<T> {
    const response = await fetch(`${server.url}/api/v1${pathname}`, {
      method,
      headers: { ...(credential ? { authorization: `Bearer ${credential}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${pathname} → ${response.status} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }

  it('the quickstart goes from a started service to a labelled dataset', { timeout: 120_000 }, async () => {
    const readme = await readFile(path.join(root, 'README.md'), 'utf8');
    const blocks = quickstartBlocks(readme);
    // The one block the test does not run is the service it stands in for.
    expect(blocks.other).toEqual([{ info: 'sh', body: 'npm install && npm start\n' }]);
    expect(blocks.bash.length).toBeGreaterThanOrEqual(5);
    const receiverPort = await freePort();
    let script = blocks.bash.join('\n');
    script = setExport(script, 'CONCORD_URL', 'http://localhost:3000', serverUrl());
    script = setExport(script, 'RECEIVER_PORT', '4000', String(receiverPort));

    const run = await runBash(script, { cwd: mirror, env: { ...env, DATA_DIR: dataDir }, timeoutMs: 100_000 });
    expect(run.code, explain(run, server)).toBe(0);

    // What the README says the log of npm start shows: the first-run admin and the file that keeps it.
    const adminFile = path.join(dataDir, 'local-admin.json');
    const admin = JSON.parse(await readFile(adminFile, 'utf8')) as { email: string; password: string };
    const announcement =
      server
        .output()
        .split('\n')
        .find((line) => line.includes('"event":"admin.local.created"')) ?? '';
    for (const shown of [admin.email, admin.password, adminFile]) expect(announcement).toContain(shown);
    expect((await stat(adminFile)).mode & 0o777).toBe(0o600);

    // Step 2's balance, step 4's SDK line, step 5's annotators, step 6's results (one per task).
    expect(run.stdout).toMatch(/^1000$/m);
    expect(run.stdout).toContain('2 tasks created with the SDK, 40 cents reserved');
    expect(run.stdout).toMatch(/^auto-1: answered 3 tasks, has earned \d+ cents$/m);
    const results = run.stdout.split('\n').filter((line) => /^(positive|negative|neutral|yes|no)\t0\.\d+\t/.test(line));
    // The simulated annotators answer the sample tasks right (the auto mode's answer key and word lists).
    expect(results.map((line) => `${line.split('\t')[2]} ${line.split('\t')[0]}`).sort()).toEqual([
      'Arrived on time, works as described. positive',
      'Broke after two days. negative',
      'Is Paris the capital of France? yes',
    ]);

    // Step 6's split named its sizes and its empty file.
    expect(run.stdout).toMatch(/^x-export-split: train=2, val=0, test=1\r?$/m);
    expect(run.stdout).toMatch(/^x-export-empty-parts: val\r?$/m);

    // Step 1 printed the buyer's e-mail and password, and they log in (to the dashboard, say).
    const shown = /^Dashboard: http:\/\/\S+\/ \(log in as (\S+), password: (.+)\)$/m.exec(run.stdout);
    expect(shown?.[2]).toBe('correct horse battery');
    const login = await fetch(`${serverUrl()}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: shown?.[1], password: shown?.[2] }),
    });
    expect(login.status).toBe(200);

    // Every task completed, and every webhook delivered and verified by the receiver.
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const tasks = await db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM tasks GROUP BY status');
      expect(tasks.rows).toEqual([{ status: 'COMPLETED', n: 3 }]);
      const deliveries = await db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM webhook_deliveries GROUP BY status');
      expect(deliveries.rows).toEqual([{ status: 'DELIVERED', n: 3 }]);
    } finally {
      await db.end();
    }
    const log = (await readFile(path.join(mirror, 'webhooks.log'), 'utf8')).trim().split('\n');
    expect(log[0]).toBe(`Listening on http://localhost:${receiverPort}/concord`);
    expect(log.slice(1)).toHaveLength(3);
    for (const line of log.slice(1)) expect(line).toMatch(/^task\.completed \S+: "[a-z]+", confidence 0\.\d+, \d answers \(signature verified\)$/);
    expect(run.stdout).toContain(log.join('\n'));

    // The exports: one JSON Lines file of the three tasks, and a split holding each of them exactly once.
    const jsonl = (await readFile(path.join(mirror, 'dataset.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; label: string });
    expect(jsonl).toHaveLength(3);
    for (const record of jsonl) expect(Object.keys(record)).toEqual(['id', 'type', 'content', 'label']);
    const zip = new AdmZip(await readFile(path.join(mirror, 'dataset.zip')));
    expect(
      zip
        .getEntries()
        .map((entry) => entry.entryName)
        .sort(),
    ).toEqual(['test.jsonl', 'train.jsonl', 'val.jsonl']);
    const split = zip.getEntries().flatMap((entry) =>
      entry
        .getData()
        .toString('utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { id: string }).id),
    );
    expect(split.sort()).toEqual(jsonl.map((record) => record.id).sort());
  });

  /** A buyer with 1 000 cents, topped up through the sandbox checkout as the quickstart does. */
  async function fundedBuyer(): Promise<{ email: string; token: string }> {
    const email = uniqueEmail('examples');
    const { token } = await api<{ token: string }>('POST', '/auth/register', null, { email, password: PASSWORD, companyName: 'Examples' });
    const { checkoutUrl } = await api<{ checkoutUrl: string }>('POST', '/billing/deposits', token, { amountCents: 1000, method: 'card' });
    expect((await fetch(`${checkoutUrl}/pay`, { method: 'POST' })).status).toBe(200);
    return { email, token };
  }

  async function appKey(): Promise<string> {
    const admin = JSON.parse(await readFile(path.join(dataDir, 'local-admin.json'), 'utf8')) as { email: string; password: string };
    const { token } = await api<{ token: string }>('POST', '/admin/login', null, admin);
    const created = await api<{ developer: { apiKey: string } }>('POST', '/admin/developers', token, {
      email: uniqueEmail('app'),
      appName: 'Examples',
      appUrl: 'https://example.com',
    });
    return created.developer.apiKey;
  }

  async function commandsOf(file: string) {
    return documentedCommands(await readFile(path.join(root, 'examples', file), 'utf8'));
  }

  it('every example documents how to run it from the repository root', async () => {
    const files = (await readdir(path.join(root, 'examples'))).filter((name) => name.endsWith('.ts')).sort();
    expect(files).toEqual(['buyer-script.ts', 'developer-app.ts', 'webhook-receiver.ts']);
    for (const file of files) {
      const commands = await commandsOf(file);
      expect(commands.length, file).toBeGreaterThan(0);
      for (const { command } of commands) expect(command.startsWith(`npx tsx examples/${file}`), command).toBe(true);
    }
    // The receiver runs in the quickstart (in the background, as `node --import tsx …`, with --count).
    expect((await commandsOf('webhook-receiver.ts')).map((c) => c.command)).toEqual(['npx tsx examples/webhook-receiver.ts']);
  });

  it("examples/buyer-script.ts's command gets its CSV's tasks answered by developer-app.ts --auto, and writes the export", { timeout: 120_000 }, async () => {
    const [buyerCommand] = await commandsOf('buyer-script.ts');
    expect(buyerCommand).toEqual({
      command: 'npx tsx examples/buyer-script.ts examples/tasks.csv results.jsonl',
      variables: ['CONCORD_URL', 'CONCORD_EMAIL', 'CONCORD_PASSWORD'],
    });
    const autoCommand = (await commandsOf('developer-app.ts')).find((c) => c.command.includes('--auto'));
    expect(autoCommand).toEqual({ command: 'npx tsx examples/developer-app.ts --auto 5', variables: ['CONCORD_URL', 'CONCORD_API_KEY'] });
    if (!buyerCommand || !autoCommand) return;

    const buyer = await fundedBuyer();
    const key = await appKey();
    let waiting: () => void = () => undefined;
    const tasksCreated = new Promise<void>((resolve) => (waiting = resolve));
    const buyerRun = runBash(buyerCommand.command, {
      cwd: mirror,
      env: { ...env, CONCORD_URL: serverUrl(), CONCORD_EMAIL: buyer.email, CONCORD_PASSWORD: PASSWORD, RECEIVER_PORT: String(await freePort()) },
      timeoutMs: 90_000,
      onStdout: (text) => text.includes('Waiting for annotators') && waiting(),
    });
    await Promise.race([tasksCreated, buyerRun]);
    const annotators = await runBash(autoCommand.command, { cwd: mirror, env: { ...env, CONCORD_URL: serverUrl(), CONCORD_API_KEY: key }, timeoutMs: 60_000 });
    expect(annotators.code, explain(annotators, server)).toBe(0);
    expect(annotators.stdout).toMatch(/^auto-1: answered 3 tasks, has earned \d+ cents$/m);
    const done = await buyerRun;
    expect(done.code, explain(done, server)).toBe(0);
    expect(done.stdout).toContain('Created 3 tasks.');
    expect(done.stdout.match(/^task\.completed: /gm)).toHaveLength(3);
    expect(done.stdout).toContain('Wrote results.jsonl.');
    const records = (await readFile(path.join(mirror, 'results.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { messages: Array<{ role: string; content: string }> });
    expect(records).toHaveLength(3);
    for (const record of records) expect(record.messages).toHaveLength(2);
    // The first dataset is right: the auto mode's answer key and word lists read the sample tasks.
    expect(records.map((record) => record.messages.map((message) => message.content).join(' → '))).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/Arrived on time, works as described\. → positive$/),
        expect.stringMatching(/Broke after two days\. → negative$/),
        expect.stringMatching(/Is Paris the capital of France\? → yes$/),
      ]),
    );
  });

  it("examples/developer-app.ts's interactive command shows a task, takes a typed answer and stops when the work runs out", { timeout: 60_000 }, async () => {
    const interactive = (await commandsOf('developer-app.ts')).find((c) => !c.command.includes('--auto'));
    expect(interactive).toEqual({ command: 'npx tsx examples/developer-app.ts', variables: ['CONCORD_URL', 'CONCORD_API_KEY'] });
    if (!interactive) return;
    const buyer = await fundedBuyer();
    await api('POST', '/tasks', buyer.token, { type: 'BINARY_CHOICE', content: 'Is the sea salty?', options: ['yes', 'no'] });
    const run = await runBash(interactive.command, {
      cwd: mirror,
      env: { ...env, CONCORD_URL: serverUrl(), CONCORD_API_KEY: await appKey() },
      timeoutMs: 30_000,
      stdin: '1\n',
    });
    expect(run.code, explain(run, server)).toBe(0);
    expect(run.stdout).toContain('Is the sea salty?');
    expect(run.stdout).toContain('Your answer (number): Thanks!');
    expect(run.stdout).toContain('No work right now.');
    expect(run.stdout).toContain('Earned so far: 0 cents (0 available).');
  });
});
