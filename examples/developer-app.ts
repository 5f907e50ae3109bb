// A minimal developer app. Interactively, one annotator in a terminal: it asks Concord for a task, shows
// it, reads the answer from the keyboard and submits it, until there is no more work.
//   CONCORD_URL=http://localhost:3000 CONCORD_API_KEY=<your app's key> npx tsx examples/developer-app.ts [annotatorId]
// With --auto N it reads no keyboard: N simulated annotators (auto-1 … auto-N) take turns answering every
// open task they can, each through one request per answer (answer and next task together), then it prints
// what each answered and earned, and exits.
//   CONCORD_URL=http://localhost:3000 CONCORD_API_KEY=<your app's key> npx tsx examples/developer-app.ts --auto 5
// The simulated annotators all give the same answer, chosen honestly simply (autoAnswer below): the
// answer key's, for the sample tasks of the README and examples/tasks.csv; for sentiment options, what a
// short list of positive and negative words in the content says (neutral when neither or both); else an
// arbitrary option, the one a hash of the content points to. A task reaches consensus after 3 of them
// (three options) or 4 (two options). They are for trying the service, not a model of real annotators,
// and they answer any buyer's open tasks (the pool is global): use them on a development service.
import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import { AnnotationClient, ConcordConflictError, ConcordError, type Assignment } from '../sdk/src/index.ts';

const apiKey = process.env.CONCORD_API_KEY;
if (!apiKey) throw new Error("Set CONCORD_API_KEY to your app's API key");
const client = new AnnotationClient({ baseUrl: process.env.CONCORD_URL ?? 'http://localhost:3000', apiKey });
const args = process.argv.slice(2);

/** The answers of the sample tasks that no word list reads: the README's and examples/tasks.csv's. */
const ANSWER_KEY: Readonly<Record<string, string>> = { 'Is Paris the capital of France?': 'yes' };
const POSITIVE = /\b(good|great|excellent|love[ds]?|perfect|works|on time|fast|happy|recommend(ed)?|as described)\b/i;
const NEGATIVE = /\b(bad|broke|broken|late|terrible|awful|poor|worst|damaged|refund|disappointed|never arrived|stopped working)\b/i;

if (args[0] === '--auto') {
  const count = Number(args[1] ?? 5);
  if (!Number.isInteger(count) || count < 1 || count > 100) throw new Error('--auto takes a number of annotators from 1 to 100, e.g. --auto 5');
  await simulate(Array.from({ length: count }, (_, i) => `auto-${i + 1}`));
} else {
  await interactive(args[0] ?? 'terminal-annotator');
}

/**
 * The simulated annotators' shared answer: the answer key's, else the sentiment a word list reads, else
 * the option a SHA-256 of the content points to (arbitrary, but the same for all of them).
 */
function autoAnswer(content: string, options: string[]): string {
  const keyed = ANSWER_KEY[content];
  if (keyed !== undefined && options.includes(keyed)) return keyed;
  if (options.includes('positive') && options.includes('negative')) {
    const positive = POSITIVE.test(content);
    const negative = NEGATIVE.test(content);
    if (positive !== negative) return positive ? 'positive' : 'negative';
    if (options.includes('neutral')) return 'neutral';
  }
  const index = createHash('sha256').update(content).digest().readUInt32BE(0) % options.length;
  return options[index] ?? options[0] ?? '';
}

/**
 * A simulated annotator's pick between two candidates: the more detailed one (the longer text), named as the
 * assignment showed it (first or second), so the same candidate wins whichever order the service chose.
 */
function autoPick(candidates: { first: string; second: string }): 'first' | 'second' {
  return candidates.second.length > candidates.first.length ? 'second' : 'first';
}

/** A simulated annotator's written answer to a text task's instruction, within its maxLength. */
function autoWrite(annotatorId: string, instruction: string, maxLength: number): string {
  return `${annotatorId} answers: ${instruction}`.slice(0, maxLength);
}

async function simulate(annotators: string[]): Promise<void> {
  const answered = new Map<string, number>();
  for (const annotatorId of annotators) {
    let count = 0;
    let assignment: Assignment | null = await client.nextTask(annotatorId);
    while (assignment) {
      const { task } = assignment;
      const chosen = task.candidates
        ? autoPick(task.candidates)
        : task.answerKind === 'text'
          ? autoWrite(annotatorId, task.content, task.maxLength ?? 2_000)
          : autoAnswer(task.content, task.options);
      // A multi-select task takes a set: the simulated annotators tick the one option they would choose.
      const answer = { annotatorId, answer: task.answerKind === 'multi' ? [chosen] : chosen, timeSpentMs: 1_000 + Math.floor(Math.random() * 4_000) };
      try {
        assignment = await client.answerAndNext(task.id, answer);
        count += 1;
      } catch (error) {
        // TASK_CLOSED: decided meanwhile by other annotators (another app's, say); ask for the next one.
        if (!(error instanceof ConcordConflictError && error.code === 'TASK_CLOSED')) throw error;
        assignment = await client.nextTask(annotatorId);
      }
    }
    answered.set(annotatorId, count);
  }
  // Earnings once everyone has answered: a task pays the annotators who agreed with its result when it completes.
  for (const [annotatorId, count] of answered) {
    const earned = count > 0 ? (await client.earnings(annotatorId)).totalEarnedCents : 0;
    console.log(`${annotatorId}: answered ${count} task${count === 1 ? '' : 's'}, has earned ${earned} cents`);
  }
  const total = [...answered.values()].reduce((sum, count) => sum + count, 0);
  console.log(total > 0 ? `${total} answers; nothing is left to answer.` : 'No work right now.');
}

async function interactive(annotatorId: string): Promise<void> {
  const terminal = createInterface({ input: process.stdin });
  const lines = terminal[Symbol.asyncIterator](); // buffers lines, so piped answers work as typed ones do
  const ask = async (prompt: string): Promise<string | undefined> => {
    process.stdout.write(prompt);
    const line = await lines.next();
    return line.done ? undefined : line.value;
  };
  try {
    for (;;) {
      const assignment = await client.nextTask(annotatorId);
      if (!assignment) {
        console.log('No work right now.');
        break;
      }
      const { task } = assignment;
      console.log(`\n${task.type} (${task.locale})\n${task.content}\n`);
      // A rating task's options are the levels of a scale, lowest first: show them as one.
      if (task.answerKind === 'rating') console.log(`  Rate from ${task.options[0]} (lowest) to ${task.options.at(-1)} (highest):`);
      const multi = task.answerKind === 'multi';
      if (multi) console.log('  Every option that applies, as numbers separated by commas:');
      // A pairwise task: the two candidates in the order this assignment shows them; the answer names one by its place.
      const { candidates } = task;
      if (candidates) console.log(`  Which response is better?\n\n  First:\n  ${candidates.first}\n\n  Second:\n  ${candidates.second}\n`);
      task.options.forEach((option, i) => console.log(`  ${i + 1}. ${option}`));
      const started = Date.now();
      let choice: string | string[] | undefined;
      // A text task: the answer is written, on one line.
      while (task.answerKind === 'text' && !choice) {
        const typed = await ask(`Your answer (at most ${task.maxLength ?? 2_000} characters): `);
        if (typed === undefined) process.exit(0); // end of input: leave the assignment to expire
        choice = typed.trim() || undefined;
      }
      while (!choice) {
        const typed = await ask(multi ? 'Your answer (numbers): ' : 'Your answer (number): ');
        if (typed === undefined) process.exit(0); // end of input: leave the assignment to expire
        const picked = typed.split(',').map((part) => task.options[Number(part.trim()) - 1]);
        if (picked.every((option) => option !== undefined)) choice = multi ? [...new Set(picked as string[])] : picked.length === 1 ? picked[0] : undefined;
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
}
