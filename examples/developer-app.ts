// A minimal developer app: one annotator in a terminal. It asks Concord for a task, shows it, reads the
// answer from the keyboard and submits it, until there is no more work.
//   CONCORD_URL=http://localhost:3000 CONCORD_API_KEY=<your app's key> npx tsx examples/developer-app.ts [annotatorId]
import { createInterface } from 'node:readline';
import { AnnotationClient, ConcordError } from '../sdk/src/index.ts';

const apiKey = process.env.CONCORD_API_KEY;
if (!apiKey) throw new Error('Set CONCORD_API_KEY to your app\'s API key');
const client = new AnnotationClient({ baseUrl: process.env.CONCORD_URL ?? 'http://localhost:3000', apiKey });
const annotatorId = process.argv[2] ?? 'terminal-annotator';
const terminal = createInterface({ input: process.stdin });
const lines = terminal[Symbol.asyncIterator](); // buffers lines, so piped answers work as typed ones do

async function ask(prompt: string): Promise<string | undefined> {
  process.stdout.write(prompt);
  const line = await lines.next();
  return line.done ? undefined : line.value;
}

try {
  for (;;) {
    const assignment = await client.nextTask(annotatorId);
    if (!assignment) {
      console.log('No work right now.');
      break;
    }
    const { task } = assignment;
    console.log(`\n${task.type} (${task.locale})\n${task.content}\n`);
    task.options.forEach((option, i) => console.log(`  ${i + 1}. ${option}`));
    const started = Date.now();
    let choice: string | undefined;
    while (!choice) {
      const typed = await ask('Your answer (number): ');
      if (typed === undefined) process.exit(0); // end of input: leave the assignment to expire
      choice = task.options[Number(typed) - 1];
    }
    try {
      await client.complete(task.id, { annotatorId, answer: choice, timeSpentMs: Date.now() - started });
      console.log('Thanks!');
    } catch (error) {
      // TASK_CLOSED: the others decided it meanwhile; anything else is worth showing.
      if (error instanceof ConcordError) console.log(`Not counted: ${error.code} (${error.message})`);
      else throw error;
    }
  }
  const earnings = await client.earnings(annotatorId);
  console.log(`Earned so far: ${earnings.totalEarnedCents} cents (${earnings.availableCents} available).`);
} finally {
  terminal.close();
}
