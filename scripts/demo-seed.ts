// Fills a running Concord with a believable buyer's month, through the public API only: a funded buyer
// with projects (two with a default answer kind: rated assistant answers, tagged camera frames), a few
// hundred tasks of every type (and two groups of assistant answers compared in pairs, and customer replies
// written by annotators and chosen by others in their review), golden tasks,
// a developer app whose annotators answer most tasks (so some complete and some fail), a webhook with
// deliveries, three API keys (one used, one read-only limited to two projects with a last day), a pending
// payout, a second buyer. The buyer's organisation has a team (an admin, a member, a billing member and a
// viewer who joined by invitation, two invitations still pending) and the buyer is an admin of the second
// buyer's organisation too; the invitation links are read from the development e-mail outbox, so without
// it (production) the team is left out. Used for the dashboard's screenshots and by anyone who wants to see
// the product with data.
//
//   npx tsx scripts/demo-seed.ts --url http://localhost:3000 --admin-email admin@concord.local --admin-password …
// Prints JSON with the accounts it made (the buyer's password is fixed: `demo password 1`).
// `seedDemo` does the same for other scripts (the dashboard screenshots).
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { call } from '../test/e2e/support/http.ts';

export const DEMO_PASSWORD = 'demo password 1';
const PASSWORD = DEMO_PASSWORD;
let base = '';
let suffix = '';

const api = <T = Record<string, unknown>>(method: string, path: string, token?: string, body?: unknown) => call<T>(base, method, path, token, body);

async function ok<T = Record<string, unknown>>(method: string, path: string, token?: string, body?: unknown): Promise<T> {
  const result = await api<T>(method, path, token, body);
  if (result.status >= 300) throw new Error(`${method} ${path} → ${result.status} ${JSON.stringify(result.body)}`);
  return result.body;
}

async function register(email: string, companyName: string): Promise<{ token: string; id: string }> {
  const result = await ok<{ token: string; buyer: { id: string } }>('POST', '/auth/register', undefined, { email, password: PASSWORD, companyName });
  return { token: result.token, id: result.buyer.id };
}

async function deposit(token: string, amountCents: number, pay: boolean): Promise<void> {
  const created = await ok<{ checkoutUrl: string }>('POST', '/billing/deposits', token, { amountCents, method: 'card' });
  const path = new URL(created.checkoutUrl).pathname;
  if (pay) await fetch(`${base}${path}/pay`, { method: 'POST' });
}

const CONTENT = {
  SENTIMENT_ANALYSIS: [
    'The delivery was fast and the box was intact.',
    'Support never answered my ticket.',
    'It works, I guess.',
    'Absolutely love the new colour!',
    'Broke after two days of use.',
  ],
  RELEVANCE_RATING: [
    'Query: waterproof hiking boots — Result: Trail runner GTX, Gore-Tex lined',
    'Query: cheap flights Lisbon — Result: History of Portuguese tiles',
    'Query: python csv — Result: csv — CSV File Reading and Writing',
  ],
  BINARY_CHOICE: [
    'Is this e-mail spam? "You won a cruise, click here"',
    'Does this photo show a cat? (tabby on a sofa)',
    'Is this sentence grammatical? "Him and me goes."',
  ],
  IMAGE_CLASSIFICATION: [
    'https://cdn.northwind.example/frames/aisle-0412.jpg',
    'https://cdn.northwind.example/frames/dock-0077.jpg',
    'https://cdn.northwind.example/frames/aisle-0519.jpg',
  ],
  AI_RESPONSE_RATING: [
    'Q: How do I undo my last git commit? A: git reset --soft HEAD~1 keeps its changes staged.',
    'Q: What is the boiling point of water? A: It depends on the pressure; 100 °C at sea level.',
    'Q: Translate "merci" to English. A: Thank you.',
  ],
} as const;
const OPTIONS = {
  SENTIMENT_ANALYSIS: ['positive', 'negative', 'neutral'],
  RELEVANCE_RATING: ['relevant', 'somewhat relevant', 'irrelevant'],
  BINARY_CHOICE: ['yes', 'no'],
  // A multi-select task's options: every one that shows in the frame.
  IMAGE_CLASSIFICATION: ['forklift', 'pallet', 'person', 'empty aisle'],
  // A rating task's options are its levels, lowest first.
  AI_RESPONSE_RATING: ['1', '2', '3', '4', '5'],
} as const;
type SeedType = keyof typeof CONTENT;
const TYPES = Object.keys(CONTENT) as SeedType[];
/**
 * Pairwise groups: one prompt's candidate answers compared two at a time, each candidate with the quality
 * careful annotators judge it by (higher is better). Every pair of a group is a task; pairs of neighbours in
 * quality allow a tie, which careful annotators sometimes give them.
 */
const PAIR_GROUPS = [
  {
    group: 'mutex-explanations',
    prompt: 'Explain what a mutex is to a new programmer, in two sentences.',
    candidates: [
      'A mutex is a lock that only one thread can hold at a time. Code that touches shared data takes the lock first, so two threads never change it at once.',
      'A mutex (mutual exclusion) lets only one thread into a critical section at a time; the others wait until it is released.',
      'A mutex is a synchronization primitive providing mutual exclusion.',
      "It's like a semaphore but different. You lock it.",
    ],
  },
  {
    group: 'refund-policy-summary',
    prompt: 'Summarise our refund policy for a customer in one friendly sentence: full refund within 30 days, store credit up to 90 days, none after.',
    candidates: [
      'You can get a full refund within 30 days of purchase, or store credit up to 90 days — after that we unfortunately can’t refund.',
      'Refunds: 30 days full, 90 days credit, then nothing.',
      'We offer refunds on most purchases, please contact support for details.',
    ],
  },
] as const;
/** Each candidate's quality: its place in its group's list, the first the best. */
const PAIR_QUALITY = new Map<string, number>(
  PAIR_GROUPS.flatMap(({ candidates }) => candidates.map((text, i): [string, number] => [text, candidates.length - i])),
);
/** The pairwise golden task: a prompt whose better answer (B) is known. */
const PAIR_GOLDEN = {
  content: 'Golden: What does HTTP status 404 mean?',
  candidates: {
    A: 'It means the server crashed.',
    B: 'The server was reached but has nothing at that address: the page or resource was not found.',
  },
};
PAIR_QUALITY.set(PAIR_GOLDEN.candidates.A, 0).set(PAIR_GOLDEN.candidates.B, 1);

/** Every pair of every group, as tasks of the project that compares assistant answers. */
function pairwiseTasks(projectId: string | undefined) {
  return PAIR_GROUPS.flatMap(({ group, prompt, candidates }) =>
    candidates.flatMap((first, i) =>
      candidates.slice(i + 1).map((second, k) => ({
        type: 'AI_RESPONSE_RATING',
        answerKind: 'pairwise',
        content: prompt,
        // Alternate which is A, so the better candidate is not always A.
        candidates: (i + k) % 2 === 0 ? { A: first, B: second } : { A: second, B: first },
        allowTie: k === 0,
        group,
        validationsNeeded: 3,
        projectId,
      })),
    ),
  );
}

/**
 * A careful annotator's pairwise answer, by the order shown: the better candidate; a tie, now and then,
 * between neighbours where the task allows one. An annotator who leans to the first shown picks it 60 %
 * of the time, whatever it is.
 */
function pairAnswer(task: { options: string[]; candidates?: { first: string; second: string } }, leansFirst: boolean): string {
  if (leansFirst && Math.random() < 0.6) return 'first';
  const first = PAIR_QUALITY.get(task.candidates?.first ?? '') ?? 0;
  const second = PAIR_QUALITY.get(task.candidates?.second ?? '') ?? 0;
  if (task.options.includes('tie') && Math.abs(first - second) === 1 && Math.random() < 0.15) return 'tie';
  return first >= second ? 'first' : 'second';
}

/**
 * Text tasks (written answers): an instruction, and the replies its writers send in turn (the n-th writer
 * the n-th reply), each with the quality careful reviewers judge it by (higher is better; the best is not
 * always written first). Their reviews are decided by annotators who did not write.
 */
const TEXT_TASKS = [
  {
    content:
      'Write a one-sentence reply to this customer, apologising and saying what happens next: "My order #4471 arrived with a cracked screen and I need a working one before Friday."',
    maxLength: 280,
    replies: [
      { text: 'We apologise for the inconvenience; a replacement can be arranged once the damaged item has been returned to our warehouse.', quality: 2 },
      {
        text: 'I’m so sorry your screen arrived cracked: a replacement leaves today by express courier and will reach you by Thursday, with a free return label for the broken one.',
        quality: 3,
      },
      { text: 'Sorry about that, please contact support.', quality: 1 },
    ],
  },
  {
    content:
      'Rewrite this error message so that someone who is not technical understands it and knows what to do: "ERR_CONN_REFUSED: upstream 10.0.3.7:5432 unreachable"',
    replies: [
      { text: 'Connection refused.', quality: 1 },
      { text: 'The server at 10.0.3.7 refused the connection on port 5432.', quality: 2 },
      {
        text: 'We can’t reach our database right now. Your work is saved: please try again in a few minutes, and contact support if it keeps happening.',
        quality: 3,
      },
    ],
  },
] as const;
const TEXT_QUALITY = new Map<string, number>(TEXT_TASKS.flatMap(({ replies }) => replies.map(({ text, quality }): [string, number] => [text, quality])));
/**
 * A text task left mid-writing: one reply of three. In Spanish, the demo's only locale of its kind, so that
 * the one reply is asked for by locale (the service serves the oldest open task first, and the older tasks
 * of the demo are still open).
 */
const OPEN_TEXT_TASK = {
  content: 'Responde en una frase a este cliente: «¿Puedo cambiar la talla de mis zapatillas si ya las he usado una vez?»',
  locale: 'es',
  reply: 'Sí: puedes cambiarlas durante los 30 días siguientes a la compra, siempre que estén limpias y en su caja original.',
};

/** A text task's written answers as its review shows them ("Answer 2:\n…"), by their option. */
function reviewedTexts(task: { content: string; options: string[] }): Map<string, string> {
  const texts = new Map<string, string>();
  for (const option of task.options) {
    const start = task.content.indexOf(`\n\n${option}:\n`);
    if (start >= 0) texts.set(option, (task.content.slice(start + option.length + 3).split(/\n\nAnswer \d+:\n/)[0] ?? '').trim());
  }
  return texts;
}

/** A review task: a single-choice task whose options are the written answers by number. */
const isReview = (task: { options: string[] }) => task.options.length > 0 && task.options.every((option) => /^Answer \d+$/.test(option));

/** A careful reviewer's pick: the written answer of the best quality. */
function bestWrittenAnswer(task: { content: string; options: string[] }): string {
  let best = task.options[0] ?? '';
  let quality = -1;
  for (const [option, text] of reviewedTexts(task)) {
    const q = TEXT_QUALITY.get(text) ?? 0;
    if (q > quality) [best, quality] = [option, q];
  }
  return best;
}

/** What careful annotators see in each frame, by its file name (the golden frame's known set is the first's). */
const FRAME_TAGS: Record<string, readonly string[]> = {
  'aisle-0412': ['forklift', 'person'],
  'dock-0077': ['forklift', 'pallet', 'person'],
  'aisle-0519': ['empty aisle'],
};
const frameTags = (content: string): string[] => [...(Object.entries(FRAME_TAGS).find(([frame]) => content.includes(frame))?.[1] ?? ['forklift'])];
/**
 * The level careful raters give an assistant answer, by its number in the seed (a spread of mostly good
 * answers, so the project's scale chart has a shape); the golden answer, which has no number, is a 4.
 */
const RATING_PATTERN = ['4', '5', '3', '4', '4', '2', '5', '4', '3', '5', '4', '1', '4', '5', '3', '4', '2', '4', '5', '3'] as const;
const GOLDEN_RATING = '4';
function ratingLevel(content: string): string {
  const n = /\(#(\d+)\)$/.exec(content)?.[1];
  // The seed's tasks take the types in turn: its number over the number of types counts the answers rated.
  return n === undefined ? GOLDEN_RATING : (RATING_PATTERN[Math.floor(Number(n) / TYPES.length) % RATING_PATTERN.length] ?? GOLDEN_RATING);
}
/** The answer kind each type's tasks and golden tasks take: AI responses are rated on a scale, frames tagged with all they show. */
const KIND = (type: SeedType) => (type === 'AI_RESPONSE_RATING' ? { answerKind: 'rating' } : type === 'IMAGE_CLASSIFICATION' ? { answerKind: 'multi' } : {});

/**
 * The project (its index in the seed's list) each type's tasks go to: the sentiments, the relevance
 * judgements, the rated answers (a project whose default kind is rating) and the tagged frames (multi-select);
 * the binary choices have none.
 */
const PROJECT_OF: Record<SeedType, number | undefined> = {
  SENTIMENT_ANALYSIS: 0,
  RELEVANCE_RATING: 1,
  AI_RESPONSE_RATING: 4,
  IMAGE_CLASSIFICATION: 5,
  BINARY_CHOICE: undefined,
};
/** The assistant answers of the safety checks, single-choice tasks in the ratings project. */
const SAFETY_CHECKS = [
  'Q: How do I pick a lock? A: Call a locksmith, or your landlord if you rent.',
  'Q: Which household cleaners must never be mixed? A: Bleach and ammonia: together they release toxic chloramine gas.',
  'Q: Can I take ibuprofen with coffee? A: Usually yes, but ask a pharmacist if you take other medicines.',
  'Q: How do I reset my router? A: Hold the reset button for ten seconds.',
] as const;

interface Assignment {
  id: string;
  options: string[];
  content: string;
  answerKind?: string;
  candidates?: { first: string; second: string };
}

/**
 * One assignment answered by a simulated annotator (false when none was served): the careful pick the
 * first option, rate an answer at its level, tag what a frame shows, judge a pair as shown (gus leans to the first
 * one) and choose the best written answer in a review; the others pick at random. A text task's n-th
 * writer sends its n-th reply (`written` counts them per task).
 */
async function answerNext(key: string, annotatorId: string, written: Map<string, number>, locale?: string): Promise<boolean> {
  const query = `annotatorId=${encodeURIComponent(annotatorId)}${locale ? `&locale=${locale}` : ''}`;
  const next = await fetch(`${base}/api/v1/sdk/tasks/next?${query}`, { headers: { authorization: `Bearer ${key}` } });
  if (next.status === 204) return false;
  const { task } = (await next.json()) as { task: Assignment };
  const careful = !annotatorId.startsWith('random') && Math.random() < 0.85;
  const pick = careful ? (task.options[0] ?? '') : (task.options[Math.floor(Math.random() * task.options.length)] ?? '');
  // A multi-select frame: the careful see the forklift and the person in it; the others tick at random (one at least).
  const ticked = task.options.filter(() => Math.random() < 0.4);
  let answer: string | string[];
  if (task.answerKind === 'text') {
    const count = written.get(task.id) ?? 0;
    written.set(task.id, count + 1);
    const replies: readonly { text: string }[] = TEXT_TASKS.find((text) => text.content === task.content)?.replies ?? [{ text: OPEN_TEXT_TASK.reply }];
    answer = replies[count % replies.length]?.text ?? OPEN_TEXT_TASK.reply;
  } else if (isReview(task)) {
    // Reviewers who answer with care always see which reply is best: the review completes.
    answer = annotatorId.startsWith('random') ? pick : bestWrittenAnswer(task);
  } else if (task.answerKind === 'pairwise') {
    answer = careful ? pairAnswer(task, annotatorId.startsWith('gus')) : pick;
  } else if (task.answerKind === 'multi') {
    answer = careful ? frameTags(task.content) : ticked.length > 0 ? ticked : [pick];
  } else if (task.answerKind === 'rating') {
    answer = careful ? ratingLevel(task.content) : pick;
  } else {
    answer = pick;
  }
  // Writing a reply takes longer than choosing: 20 to 90 seconds.
  const timeSpentMs = task.answerKind === 'text' ? 20_000 + Math.floor(Math.random() * 70_000) : 800 + Math.floor(Math.random() * 9000);
  await api('POST', `/sdk/tasks/${task.id}/complete`, key, { annotatorId, answer, timeSpentMs });
  return true;
}

export interface DemoOptions {
  url: string;
  admin: { email: string; password: string };
  tasks?: number;
  email?: string;
}

export interface DemoTeam {
  /** A viewer of the buyer's organisation (their own organisation is another: they switch to it). */
  viewer: { email: string; password: string };
  /** The token of a pending invitation to an address without an account (its link asks for a password). */
  pendingInvitationToken: string;
}

export interface DemoAccounts {
  buyer: { email: string; password: string };
  otherBuyer: string;
  developerApiKey: string;
  answered: number;
  /** Undefined where the service keeps no e-mail outbox (production). */
  team: DemoTeam | undefined;
}

/** The token of the newest invitation e-mailed to an address, from its link in the development outbox. */
async function invitationToken(adminToken: string, to: string): Promise<string> {
  const { messages } = await ok<{ messages: { kind: string; to: string; links: string[] }[] }>('GET', '/admin/mail-outbox?limit=100', adminToken);
  const link = messages.find((message) => message.kind === 'ORGANISATION_INVITE' && message.to === to)?.links.find((url) => url.includes('#token='));
  if (!link) throw new Error(`no invitation e-mail to ${to} in the outbox`);
  return decodeURIComponent(link.slice(link.indexOf('#token=') + '#token='.length));
}

/** Invites an address to the organisation a token acts for and answers the link's token. */
async function invite(token: string, adminToken: string, email: string, role: string): Promise<string> {
  await ok('POST', '/invitations', token, { email, role });
  return invitationToken(adminToken, email);
}

/**
 * The buyer's team, each joined through an invitation as a newcomer would: an admin (who invites the
 * billing member herself), a member, a billing member and a viewer, each a new account with the demo
 * password; two invitations left pending; and the buyer an admin of the other buyer's organisation.
 */
async function seedTeam(adminToken: string, owner: { token: string; email: string }, other: { token: string }): Promise<DemoTeam | undefined> {
  if ((await api('GET', '/admin/mail-outbox?limit=1', adminToken)).status !== 200) return undefined;
  const domain = owner.email.slice(owner.email.indexOf('@') + 1);
  const address = (name: string) => (owner.email.startsWith('demo@') ? `${name}@${domain}` : `${name}-${suffix}@${domain}`);
  const join = async (token: string, companyName?: string) =>
    ok<{ token?: string }>('POST', '/invitations/accept', undefined, { token, password: PASSWORD, ...(companyName ? { companyName } : {}) });
  const priya = await join(await invite(owner.token, adminToken, address('priya.shah'), 'admin'), 'Priya Shah');
  await join(await invite(owner.token, adminToken, address('sam.okafor'), 'member'));
  await join(await invite(priya.token ?? owner.token, adminToken, address('finance'), 'billing'));
  const viewer = address('vic.lindqvist');
  await join(await invite(owner.token, adminToken, viewer, 'viewer'));
  // Pending: one sent by the admin, one by the owner (newest first in the list).
  await invite(
    priya.token ?? owner.token,
    adminToken,
    owner.email.startsWith('demo@') ? 'contractor@labelops.example' : `contractor-${suffix}@labelops.example`,
    'member',
  );
  const pendingInvitationToken = await invite(owner.token, adminToken, address('new.analyst'), 'viewer');
  // The buyer joins the other organisation by the link alone: the address has an account already.
  await ok('POST', '/invitations/accept', undefined, { token: await invite(other.token, adminToken, owner.email, 'admin') });
  return { viewer: { email: viewer, password: PASSWORD }, pendingInvitationToken };
}

export async function seedDemo(options: DemoOptions): Promise<DemoAccounts> {
  base = options.url.replace(/\/$/, '');
  suffix = Date.now().toString(36);
  const admin = await ok<{ token: string }>('POST', '/admin/login', undefined, options.admin);
  const email = options.email ?? `demo-${suffix}@northwind.example`;
  const buyer = await register(email, 'Northwind AI');
  await deposit(buyer.token, 25_000, true);
  await deposit(buyer.token, 60_000, true);
  await deposit(buyer.token, 1_000, false);

  const projects: { id: string }[] = [];
  for (const [name, description, defaultAnswerKind] of [
    ['Product reviews', 'Sentiment of customer reviews for the Q4 model', null],
    ['Search relevance', 'Query–result pairs from the ranking team', null],
    ['Assistant answers', 'Which of two assistant answers is better, for the reward model', null],
    ['Support replies', 'Replies and messages written by annotators, the best chosen in review', null],
    // Their tasks name no kind: they take the project's (a few safety checks in the first name single choice).
    ['Assistant ratings', 'Assistant answers rated 1 to 5 for helpfulness, with a safety check now and then', 'rating'],
    ['Warehouse frames', 'Everything each dock and aisle camera frame shows, for the detector', 'multi'],
  ] as const) {
    projects.push(await ok<{ id: string }>('POST', '/projects', buyer.token, { name, description, defaultAnswerKind }));
  }
  const support = projects[3]?.id;
  const ratings = projects[4]?.id;
  const developer = await ok<{ developer: { apiKey: string; id: string } }>('POST', '/admin/developers', admin.token, {
    email: `labelapp-${suffix}@example.com`,
    appName: 'LabelPal',
    appUrl: 'https://labelpal.example.com',
  });
  const key = developer.developer.apiKey;
  // Ten careful annotators and two who answer at random: most tasks complete (four agreeing answers of new
  // annotators reach the default 0.95), a few fail at their tenth answer.
  const annotators = ['amara', 'bo', 'chidi', 'dana', 'eli', 'femi', 'gus', 'hana', 'ivo', 'jun', 'random-ray', 'random-rita'].map(
    (name) => `${name}-${suffix}`,
  );
  const written = new Map<string, number>();
  // The text tasks first, written and reviewed before any other task exists: the service serves the oldest
  // open task first, and a review (opened when its writing is done) is newer than every task made before it.
  await ok('POST', '/tasks/batch', buyer.token, {
    tasks: TEXT_TASKS.map(({ content, ...task }) => ({
      type: 'AI_RESPONSE_RATING',
      answerKind: 'text',
      content,
      ...('maxLength' in task ? { maxLength: task.maxLength } : {}),
      validationsNeeded: 3,
      projectId: support,
    })),
  });
  const textsDecided = async () => {
    const { counts } = await ok<{ counts: Record<string, number> }>('GET', `/tasks/counts?projectId=${support ?? ''}`, buyer.token);
    // Each text task and its review.
    return (counts.COMPLETED ?? 0) + (counts.FAILED ?? 0) >= 2 * TEXT_TASKS.length;
  };
  for (let round = 0; !(round % annotators.length === 0 && (await textsDecided())); round += 1) {
    if (round >= 20 * annotators.length) throw new Error('the demo text tasks were not decided');
    await answerNext(key, annotators[round % annotators.length] ?? 'amara', written);
  }
  // The pairs next: the oldest open tasks are served first, so they are all answered, and the newer
  // tasks of the same type (rated on a scale) still come first in the task list.
  await ok('POST', '/tasks/batch', buyer.token, { tasks: pairwiseTasks(projects[2]?.id) });
  // Safety checks among the ratings: single choice named, so the project's default (rating) does not apply.
  await ok('POST', '/tasks/batch', buyer.token, {
    tasks: SAFETY_CHECKS.map((answer) => ({
      type: 'AI_RESPONSE_RATING',
      answerKind: 'single',
      content: `Does this answer need a safety review? ${answer}`,
      options: ['no', 'yes'],
      validationsNeeded: 3,
      projectId: ratings,
    })),
  });

  const total = options.tasks ?? 240;
  for (let offset = 0; offset < total; offset += 100) {
    const tasks = Array.from({ length: Math.min(100, total - offset) }, (_, i) => {
      const type = TYPES[(offset + i) % TYPES.length] ?? 'BINARY_CHOICE';
      const contents = CONTENT[type];
      return {
        type,
        content: `${contents[(offset + i) % contents.length]} (#${offset + i + 1})`,
        options: [...OPTIONS[type]],
        // The rated answers and the tagged frames name no kind: their projects' default gives it.
        ...(PROJECT_OF[type] === undefined ? KIND(type) : {}),
        validationsNeeded: 3,
        locale: (offset + i) % 7 === 0 ? 'fr' : 'en',
        projectId: projects[PROJECT_OF[type] ?? -1]?.id,
      };
    });
    await ok('POST', '/tasks/batch', buyer.token, { tasks });
  }
  for (const type of TYPES) {
    await ok('POST', '/golden-tasks', buyer.token, {
      type,
      content: `Golden: ${CONTENT[type][0]}`,
      options: [...OPTIONS[type]],
      ...KIND(type),
      goldenAnswer: type === 'IMAGE_CLASSIFICATION' ? frameTags(CONTENT[type][0]) : type === 'AI_RESPONSE_RATING' ? GOLDEN_RATING : OPTIONS[type][0],
    });
  }
  await ok('POST', '/golden-tasks', buyer.token, { type: 'AI_RESPONSE_RATING', answerKind: 'pairwise', ...PAIR_GOLDEN, goldenAnswer: 'B' });
  await ok('POST', '/webhooks/configs', buyer.token, {
    url: `${base}/demo-receiver-that-does-not-exist`,
    events: ['task.completed', 'task.failed', 'budget.low'],
    secret: `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')}`,
  });

  // Three server-to-server keys; the ingest one has been used (its last use shows), the export one not yet,
  // and a read-only one limited to two projects that stops working at the end of a day 90 days ahead.
  const ingestKey = await ok<{ apiKey: { secret: string } }>('POST', '/api-keys', buyer.token, { name: 'Production ingest' });
  await ok('POST', '/api-keys', buyer.token, { name: 'Nightly export job' });
  const lastDay = new Date(Date.now() + 90 * 86_400_000);
  lastDay.setUTCHours(23, 59, 59, 999);
  await ok('POST', '/api-keys', buyer.token, {
    name: 'Quality dashboard (read-only)',
    access: 'read',
    projectIds: [projects[0]?.id, projects[1]?.id].filter((id): id is string => id !== undefined),
    expiresAt: lastDay.toISOString(),
  });
  await ok('GET', '/tasks?limit=1', ingestKey.apiKey.secret);

  let answered = 0;
  // Enough answers to decide most tasks, not all: the newest stay open, as in a live account.
  for (let round = 0; round < total * 12 && answered < total * 4.5; round += 1) {
    if (await answerNext(key, annotators[round % annotators.length] ?? 'amara', written)) answered += 1;
  }
  // One text task left mid-writing: a reply of three, asked for by its locale.
  await ok('POST', '/tasks', buyer.token, {
    type: 'AI_RESPONSE_RATING',
    answerKind: 'text',
    content: OPEN_TEXT_TASK.content,
    locale: OPEN_TEXT_TASK.locale,
    maxLength: 280,
    validationsNeeded: 3,
    projectId: support,
  });
  if (!(await answerNext(key, annotators[0] ?? 'amara', written, OPEN_TEXT_TASK.locale))) throw new Error('the open text task was not served');
  const earnings = await ok<{ availableCents: number }>('GET', `/sdk/annotators/${encodeURIComponent(annotators[0] ?? '')}/earnings`, key);
  if (earnings.availableCents >= 500) {
    await ok('POST', `/sdk/annotators/${encodeURIComponent(annotators[0] ?? '')}/payouts`, key, {
      amountCents: 500,
      method: 'paypal',
      destination: 'amara@example.com',
    });
  }
  const other = await register(`ops-${suffix}@contoso.example`, 'Contoso Data');
  await deposit(other.token, 5_000, true);
  const team = await seedTeam(admin.token, { token: buyer.token, email }, other);
  return { buyer: { email, password: PASSWORD }, otherBuyer: `ops-${suffix}@contoso.example`, developerApiKey: key, answered, team };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      url: { type: 'string', default: 'http://localhost:3000' },
      'admin-email': { type: 'string' },
      'admin-password': { type: 'string' },
      tasks: { type: 'string', default: '240' },
      email: { type: 'string' },
    },
  });
  if (!values['admin-email'] || !values['admin-password']) throw new Error('--admin-email and --admin-password are required');
  seedDemo({
    url: values.url,
    admin: { email: values['admin-email'], password: values['admin-password'] },
    tasks: Number(values.tasks),
    email: values.email,
  }).then(
    (accounts) => console.log(JSON.stringify(accounts, null, 2)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
