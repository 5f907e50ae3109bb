// `concord`, the command line of the Concord API (@concord/cli; bin.ts runs it; packages/cli/README.md). Every command
// takes --json (one JSON document on stdout; progress and diagnostics stay on stderr) and ends with an
// exit code of errors.ts's EXIT table.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { balance, login, logout, topUp, type TopUpOptions } from './account.ts';
import { setMonthlyCap, setProjectCap, showCaps } from './caps.ts';
import { scheduleTask, showAtRisk } from './deadlines.ts';
import { rejectResult } from './review.ts';
import type { GlobalOptions } from './config.ts';
import { CliError, EXIT, toCliError } from './errors.ts';
import { exportDataset, type ExportOptions } from './export.ts';
import { EXPORT_FORMATS, MAX_BATCH_TASKS } from '@concord/contract';
import { describeImport, runImport, type ImportOptions } from './import.ts';
import { listen, type ListenOptions } from './listen.ts';
import { Output } from './output.ts';
import { watchTasks, type WatchOptions } from './watch.ts';
import { VERSION } from './version.ts';
import { rotateWebhookSecret, testWebhook, type RotateSecretOptions } from './webhooks.ts';

const USER_AGENT = `concord-cli/${VERSION} node/${process.versions.node}`;

const integer = (name: string, min: number, max: number) => (value: string) => {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < min || n > max) throw new InvalidArgumentError(`${name} is an integer from ${min} to ${max}`);
  return n;
};
const positive = (name: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`${name} is a positive number`);
  return n;
};

const wantsJson = (argv: string[]) => argv.includes('--json');

/** Prints a failure as the command's result (JSON on stdout with --json) and returns its exit code. */
function report(error: unknown, json: boolean): number {
  const failure = toCliError(error);
  if (json) {
    process.stdout.write(`${JSON.stringify({ error: { code: failure.code, message: failure.message, exitCode: failure.exitCode, ...failure.extra } })}\n`);
  } else {
    const requestId = typeof failure.extra.requestId === 'string' ? ` (request ${failure.extra.requestId})` : '';
    process.stderr.write(`error: ${failure.message}${requestId}\n`);
    const summary = failure.extra.summary as Parameters<typeof describeImport>[0] | undefined;
    if (summary) process.stderr.write(`${describeImport(summary)}\n`);
  }
  return failure.exitCode;
}

export function buildProgram(): Command {
  const program = new Command('concord')
    .description('Concord from the terminal: import tasks, watch them, export datasets, manage the balance and webhooks.')
    .version(VERSION, '-v, --version')
    .option('--base-url <url>', 'the service (default: CONCORD_URL, else the stored login, else http://localhost:3000)')
    .option('--api-key <key>', 'a buyer API key cnc_… (default: CONCORD_API_KEY, else the stored login)')
    .option('--json', 'print the result as JSON on stdout (errors too: {"error":{code,message,exitCode}})')
    .option('-q, --quiet', 'no progress or notes on stderr')
    .showHelpAfterError('(concord --help for usage)')
    .exitOverride()
    .configureHelp({ sortSubcommands: false })
    .addHelpText(
      'after',
      `
Exit codes: 0 ok · 1 API or network error (webhooks test: not delivered) · 2 usage error · 3 no credential or refused (401/403)
            4 import finished with refused rows · 5 insufficient credits or a spending cap (402) · 130 Ctrl-C (webhooks listen: 0) · 143 SIGTERM
Config: $XDG_CONFIG_HOME/concord/config.json (mode 0600). Docs: sdk/README.md, "The concord CLI".`,
    );

  const run =
    <A extends unknown[]>(action: (...args: A) => Promise<void>) =>
    async (...args: A): Promise<void> => {
      await action(...args);
    };
  const globals = (command: Command) => command.optsWithGlobals<GlobalOptions & Record<string, unknown>>();
  const output = (options: GlobalOptions) => new Output(options.json === true, options.quiet === true);

  program
    .command('login')
    .description('store a buyer API key (checked with the service) and the base URL in the config file')
    .addHelpText('after', '\nThe key comes from --api-key, CONCORD_API_KEY, or a hidden prompt (stdin when not a terminal).')
    .action(run(async (_options: unknown, command: Command) => login(globals(command), output(globals(command)), USER_AGENT)));

  program
    .command('logout')
    .description('forget the stored API key (it stays valid until revoked on the dashboard)')
    .action(run(async (_options: unknown, command: Command) => logout(output(globals(command)))));

  program
    .command('import')
    .argument('<file>', 'a CSV (type,content,options[,locale,maxCents,projectId,validationsNeeded]; options separated by |) or JSONL file')
    .description('create tasks from a file of any size, in batches; an interrupted import resumes when run again')
    .addOption(new Option('--format <format>', 'csv or jsonl (default: from the extension, else the first character)'))
    .option('--project <id>', 'projectId for every row that names none')
    .option('--concurrency <n>', 'batches in flight', integer('--concurrency', 1, 16), 4)
    .option('--batch-size <n>', `rows per batch (at most ${MAX_BATCH_TASKS})`, integer('--batch-size', 1, MAX_BATCH_TASKS), MAX_BATCH_TASKS)
    .option('--dry-run', 'check every row and count the batches; create nothing')
    .option('--errors <file>', 'the error report (row,code,message) (default: FILE.errors.csv)')
    .option('--checkpoint <file>', 'the checkpoint file (default: in $XDG_STATE_HOME/concord/imports)')
    .option('--restart', "discard this file's checkpoint and start over: rows an earlier run created are created again")
    .action(
      run(async (file: string, _options: unknown, command: Command) => {
        const options = globals(command) as unknown as ImportOptions;
        const out = output(options);
        const summary = await runImport(file, { ...options, userAgent: USER_AGENT }, out);
        out.result(summary, describeImport(summary));
        if (summary.refused > 0) process.exitCode = EXIT.PARTIAL;
      }),
    );

  const tasks = program.command('tasks').description('tasks');
  tasks
    .command('watch')
    .description('live task counts by status until none is PENDING or VALIDATING')
    .option('--project <id>', "only this project's tasks")
    .addOption(new Option('--type <type>', 'only this type'))
    .addOption(new Option('--locale <locale>', 'only this locale'))
    .option('--once', 'print the counts once and exit')
    .option('--interval <seconds>', 'seconds between reads when polling', positive('--interval'), 2)
    .option('--no-stream', 'poll instead of following the event stream')
    .action(run(async (_options: unknown, command: Command) => watchTasks(globals(command) as unknown as WatchOptions, output(globals(command)), USER_AGENT)));
  tasks
    .command('at-risk')
    .description("open tasks whose deadline is nearer than their project's median completion time, soonest first")
    .option('--project <id>', "only this project's tasks")
    .option('--limit <n>', 'how many (1–100, 20 by default)', positive('--limit'))
    .action(run(async (_options: unknown, command: Command) => showAtRisk(globals(command), output(globals(command)), USER_AGENT)));
  tasks
    .command('reject')
    .argument('<taskId>', 'a COMPLETED task, decided at most 7 days ago')
    .description('reject its result: it is decided again at a higher target, its charge refunded meanwhile')
    .requiredOption('--reason <text>', 'why the result is wrong (kept on the task, sent in task.rejected)')
    .action(run(async (taskId: string, _options: unknown, command: Command) => rejectResult(taskId, globals(command), output(globals(command)), USER_AGENT)));
  tasks
    .command('schedule')
    .argument('<taskId>', 'an open task (PENDING or VALIDATING)')
    .description("change an open task's deadline or priority")
    .option('--deadline <time>', 'ISO 8601 with a zone, a minute to 366 days ahead (2026-12-01T18:00:00Z), or none to remove it')
    .option('--priority <n>', '-10 to 10: orders your own tasks in next, ten minutes of age per point')
    .action(run(async (taskId: string, _options: unknown, command: Command) => scheduleTask(taskId, globals(command), output(globals(command)), USER_AGENT)));

  program
    .command('export')
    .description('download a dataset (streamed to a file)')
    .addOption(new Option('--format <format>', 'the dataset format').choices([...EXPORT_FORMATS]).makeOptionMandatory())
    .addOption(new Option('--status <status>', 'tasks in this status (default COMPLETED)'))
    .option('--project <id>', "only this project's tasks")
    .addOption(new Option('--type <type>', 'only this type'))
    .addOption(new Option('--locale <locale>', 'only this locale'))
    .option('--split <ratios>', 'train,val,test ratios (a ZIP of three files), or a train ratio alone')
    .option('--seed <seed>', 'changes the deterministic shuffle of a split')
    .option('--include-ties', 'preference format: also write pairs decided as a tie')
    .option('-o, --output <file>', "where to write (default: the service's file name, in this directory)")
    .action(
      run(async (_options: unknown, command: Command) => exportDataset(globals(command) as unknown as ExportOptions, output(globals(command)), USER_AGENT)),
    );

  program
    .command('balance')
    .description('balance, reserved and available cents')
    .action(run(async (_options: unknown, command: Command) => balance(globals(command), output(globals(command)), USER_AGENT)));

  program
    .command('top-up')
    .argument('<amount>', 'in dollars: 50 or 49.99')
    .description('start a deposit and open its checkout page (the URL is always printed)')
    .addOption(new Option('--method <method>', 'payment method').choices(['card', 'mobile_money']).default('card'))
    .option('--open', 'open the checkout URL in the browser even when not on a terminal')
    .option('--no-open', 'do not open a browser')
    .option('--wait', 'wait until the payment is confirmed, then print the new balance')
    .option('--wait-timeout <seconds>', 'how long --wait waits', positive('--wait-timeout'), 900)
    .action(
      run(async (amount: string, _options: unknown, command: Command) =>
        topUp(amount, globals(command) as unknown as TopUpOptions, output(globals(command)), USER_AGENT),
      ),
    );

  const caps = program.command('caps').description('spending caps');
  caps
    .command('show')
    .description("the monthly cap and the projects' budget caps, with what is committed under each")
    .action(run(async (_options: unknown, command: Command) => showCaps(globals(command), output(globals(command)), USER_AGENT)));
  caps
    .command('set-monthly')
    .argument('<amount>', 'in dollars (500 or 499.99), or none to remove it')
    .description('set what the tasks created in a calendar month (UTC) may commit')
    .action(run(async (amount: string, _options: unknown, command: Command) => setMonthlyCap(amount, globals(command), output(globals(command)), USER_AGENT)));
  caps
    .command('set-project')
    .argument('<projectId>', 'the project')
    .argument('<amount>', 'in dollars, or none to remove it')
    .description("set what a project's tasks may commit over its whole life")
    .addOption(new Option('--hold', 'past the cap, hold new tasks (neither reserved nor served) instead of refusing them').conflicts('refuse'))
    .option('--refuse', "past the cap, refuse new tasks (402); without --hold or --refuse the project's choice stays")
    .action(
      run(async (projectId: string, amount: string, _options: unknown, command: Command) =>
        setProjectCap(projectId, amount, globals(command), output(globals(command)), USER_AGENT),
      ),
    );

  const webhooks = program.command('webhooks').description('webhooks');
  webhooks
    .command('listen')
    .description('forward your events, signed with a local secret, to a local URL (like stripe listen)')
    .requiredOption('--forward-to <url>', 'where each event is POSTed, e.g. http://localhost:4000/webhooks')
    .option('--events <types>', 'only these event types, comma-separated (task.completed,task.failed,task.rejected,budget.low,budget.cap_reached,ping)')
    .option('--secret <whsec>', 'sign with this whsec_ secret (default: one generated once and kept in the config file)')
    .option('--timeout <seconds>', 'how long the local URL may take to answer', positive('--timeout'), 10)
    .addHelpText('after', '\nCtrl-C stops it, as a normal end: "Stopped: forwarded N events." (--json: {"stopped":true,"forwarded":N}) and exit 0.')
    .action(run(async (_options: unknown, command: Command) => listen(globals(command) as unknown as ListenOptions, output(globals(command)), USER_AGENT)));
  webhooks
    .command('test')
    .argument('<configId>', 'the webhook configuration (its id, as GET /webhooks/configs lists it)')
    .description("send a signed ping to the configuration's URL now and show how it answered (exit 1 when not a 2xx)")
    .action(
      run(async (configId: string, _options: unknown, command: Command) => testWebhook(configId, globals(command), output(globals(command)), USER_AGENT)),
    );
  webhooks
    .command('rotate-secret')
    .argument('<configId>', 'the webhook configuration')
    .description('replace the signing secret with a new whsec_ one, printed once; the old one keeps signing for 24 h')
    .option('--secret <secret>', 'use this secret instead of a generated whsec_ one')
    .action(
      run(async (configId: string, _options: unknown, command: Command) =>
        rotateWebhookSecret(configId, globals(command) as unknown as RotateSecretOptions, output(globals(command)), USER_AGENT),
      ),
    );

  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  const json = wantsJson(argv);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.OK;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return EXIT.OK; // --help, --version
      // Commander has printed its message on stderr.
      if (json) report(new CliError(EXIT.USAGE, 'USAGE', error.message.replace(/^error: /, '')), true);
      return EXIT.USAGE;
    }
    return report(error, json);
  }
}
