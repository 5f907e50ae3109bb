// Screenshots of every dashboard page at 1 280 px and 390 px wide, into docs/dashboard/ (linked from the
// README). Starts its own server (development mode, so the first-run admin and the e-mail outbox show)
// on a fresh database, fills it with scripts/demo-seed.ts through the public API, then visits each page
// (and the overview of a buyer who just signed up, a viewer's restricted pages, and an invitation link).
//   npm run dashboard:screenshots            every page
//   npm run dashboard:screenshots -- webhook  only the pictures whose name starts with "webhook"
//   npm run dashboard:screenshots -- members viewer  those starting with either
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { benchDatabase, startServer } from '../bench/lib.ts';
import { DESKTOP, launchBrowser, logIn, PHONE, settle } from '../test/e2e/support/browser.ts';
import { call } from '../test/e2e/support/http.ts';
import { DEMO_PASSWORD, seedDemo } from './demo-seed.ts';

const OUT = path.resolve('docs/dashboard');

interface Shot {
  name: string;
  path: string;
  /** Runs after the page settles, before the picture (open a drawer, fill a form…). */
  prepare?: (page: Page) => Promise<void>;
  /**
   * The picture is of an open dialog: the window is made tall enough for all of the dialog, instead of a
   * full-page picture in which the dialog and its backdrop cover only the first screen.
   */
  dialog?: boolean;
  /** The picture is of this element alone (one section of a long page), found by its CSS selector. */
  element?: string;
}

/**
 * The drawer of the first task a list shows (a single-choice, a rating or a multi-select one, by its
 * filters); with `project`, of that project's tasks (chosen in the filter: its id is the database's), and
 * with `row`, the first whose row reads so (its result, or what its lines say).
 */
const taskDrawer = (name: string, path: string, { project, row }: { project?: string; row?: string | RegExp } = {}): Shot => ({
  name,
  path,
  dialog: true,
  prepare: (page) => openTaskDrawer(page, { project, row }),
});

async function openTaskDrawer(page: Page, { project, row }: { project?: string | undefined; row?: string | RegExp | undefined }) {
  if (project) {
    await page.getByLabel('Filter by project').selectOption({ label: project });
    await page.waitForURL(/projectId=/);
    await settleOrGoOn(page);
  }
  // The task list's rows (the tasks at risk above it are another table).
  await page
    .locator('main table.tasks-table tbody tr', row ? { hasText: row } : {})
    .first()
    .click();
  await page.locator('dialog[open]').waitFor();
}

/** The demo's completed text task (the customer reply), by its instruction and the kind its row names. */
const TEXT_TASK_ROW = { project: 'Support replies', row: /one-sentence reply.*Written answer/ };

/** The project whose budget cap holds the tasks past it (addSpendingCaps). */
const HOLDING_PROJECT = 'Call centre intents';

/** addDeadlines' projects: one whose tasks took six hours each, one with a default deadline and nothing completed yet. */
const CATALOGUE_PROJECT = 'Catalogue checks';
const MODERATION_PROJECT = 'Store moderation';

/** The project whose results addResultReview rejects. */
const REVIEW_PROJECT = 'Product reviews';

/**
 * Sends Store moderation's task due in five minutes again (addDeadlines sets it): the first deadline
 * picture of each width calls it, so the task is at risk, not expired, however long the pictures before took.
 */
let freshUrgentTask: (() => Promise<void>) | undefined;

/** The project of that name, opened from the project list. */
const openProject = (name: string) => async (page: Page) => {
  await page.getByRole('link', { name, exact: true }).click();
  await page.waitForURL(/\/projects\/.+/);
};

/** A pair typed into the pairwise forms (Create task, New golden task). */
const PAIR_EXAMPLE = {
  prompt: 'Write a one-line commit message for a change that fixes a crash when the config file is empty.',
  A: 'Fix crash on empty config file',
  B: 'fixed stuff',
};

/** An instruction typed into Create task with a written answer chosen. */
const TEXT_EXAMPLE = {
  instruction: 'Write a one-sentence reply to this customer: "The app logs me out every time I switch to another app. How do I stay signed in?"',
};

const BUYER_SHOTS: Shot[] = [
  { name: 'overview', path: '/' },
  { name: 'tasks', path: '/tasks' },
  {
    // A group's pairs share their prompt: each row also names its two candidates.
    name: 'tasks-pairwise',
    path: '/tasks',
    prepare: async (page) => {
      await page.getByLabel('Filter by project').selectOption({ label: 'Assistant answers' });
      await page.waitForURL(/projectId=/);
    },
  },
  taskDrawer('task-drawer', '/tasks?status=COMPLETED'),
  taskDrawer('task-drawer-rating', '/tasks?status=COMPLETED&type=AI_RESPONSE_RATING'),
  taskDrawer('task-drawer-multi', '/tasks?status=COMPLETED&type=IMAGE_CLASSIFICATION'),
  taskDrawer('task-drawer-pairwise', '/tasks?status=COMPLETED', { project: 'Assistant answers', row: 'is better' }),
  {
    // Text tasks and their reviews: each row says its kind and where its writing stands.
    name: 'tasks-text',
    path: '/tasks',
    prepare: async (page) => {
      await page.getByLabel('Filter by project').selectOption({ label: 'Support replies' });
      await page.waitForURL(/projectId=/);
    },
  },
  // A completed text task: its written answers numbered as its review numbers them, the chosen one marked.
  taskDrawer('task-drawer-text', '/tasks?status=COMPLETED', TEXT_TASK_ROW),
  {
    // Its review task, opened from the text task's drawer: a single-choice task between the written answers.
    name: 'task-drawer-review',
    path: '/tasks?status=COMPLETED',
    dialog: true,
    prepare: async (page) => {
      await openTaskDrawer(page, TEXT_TASK_ROW);
      await page.getByRole('link', { name: 'Open its review task' }).click();
      await page.waitForURL(/task=[^&]+-review/);
      await page.locator('dialog[open]').getByText('Review of', { exact: true }).waitFor();
    },
  },
  {
    name: 'task-create',
    path: '/tasks',
    dialog: true,
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Create task' }).click();
      await page.locator('dialog[open]').waitFor();
    },
  },
  {
    // Opened on a project whose default kind is rating: the kind is preselected and says why.
    name: 'task-create-project-default',
    path: '/tasks',
    dialog: true,
    prepare: async (page) => {
      await page.getByLabel('Filter by project').selectOption({ label: 'Assistant ratings' });
      await page.waitForURL(/projectId=/);
      await page.getByRole('button', { name: 'Create task' }).click();
      await page.locator('dialog[open]').waitFor();
    },
  },
  {
    // Pairwise chosen: a prompt and two candidates instead of options, the tie and the group.
    name: 'task-create-pairwise',
    path: '/tasks',
    dialog: true,
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Create task' }).click();
      const dialog = page.getByRole('form', { name: 'New task' });
      await dialog.getByLabel('Type').selectOption('AI_RESPONSE_RATING');
      await dialog.getByLabel('Answer', { exact: true }).selectOption('pairwise');
      await dialog.getByLabel('Prompt').fill(PAIR_EXAMPLE.prompt);
      await dialog.getByLabel('Candidate A').fill(PAIR_EXAMPLE.A);
      await dialog.getByLabel('Candidate B').fill(PAIR_EXAMPLE.B);
      await dialog.getByLabel('Allow a tie').check();
      await dialog.getByLabel('Group (optional)').fill('commit-messages');
    },
  },
  {
    // A written answer chosen: an instruction instead of options, the longest answer, and twice the price.
    name: 'task-create-text',
    path: '/tasks',
    dialog: true,
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Create task' }).click();
      const dialog = page.getByRole('form', { name: 'New task' });
      await dialog.getByLabel('Type').selectOption('AI_RESPONSE_RATING');
      await dialog.getByLabel('Answer', { exact: true }).selectOption('text');
      await dialog.getByLabel('Instruction').fill(TEXT_EXAMPLE.instruction);
      await dialog.getByLabel('Longest answer (characters)').fill('280');
    },
  },
  { name: 'import', path: '/import' },
  {
    // A chosen file's preview: a table wider than a phone, which shows that it scrolls.
    name: 'import-preview',
    path: '/import',
    prepare: async (page) => {
      await page.getByLabel('CSV file').setInputFiles({ name: 'reviews.csv', mimeType: 'text/csv', buffer: Buffer.from(PREVIEW_CSV) });
      await page.getByText('Preview: the first').waitFor();
    },
  },
  {
    // Pairwise rows: the options cell empty, the two candidates in their own columns.
    name: 'import-preview-pairwise',
    path: '/import',
    prepare: async (page) => {
      await page.getByLabel('CSV file').setInputFiles({ name: 'pairs.csv', mimeType: 'text/csv', buffer: Buffer.from(PAIRWISE_CSV) });
      await page.getByText('Preview: the first').waitFor();
    },
  },
  {
    // Text rows: the options cell empty (a written answer), the longest answer in its own column.
    name: 'import-preview-text',
    path: '/import',
    prepare: async (page) => {
      await page.getByLabel('CSV file').setInputFiles({ name: 'replies.csv', mimeType: 'text/csv', buffer: Buffer.from(TEXT_CSV) });
      await page.getByText('Preview: the first').waitFor();
    },
  },
  { name: 'projects', path: '/projects' },
  { name: 'project', path: '/projects', prepare: openProject('Search relevance') },
  // A project of pairwise tasks: its groups' rankings and win rates, and the annotators' position bias.
  { name: 'project-pairwise', path: '/projects', prepare: openProject('Assistant answers') },
  // Rated answers (the project's default kind) with a few single-choice safety checks: the kinds line, the
  // scale's levels in order.
  { name: 'project-rating', path: '/projects', prepare: openProject('Assistant ratings') },
  // Tagged camera frames: each option's rate among the multi-select tasks.
  { name: 'project-multi', path: '/projects', prepare: openProject('Warehouse frames') },
  { name: 'golden-tasks', path: '/golden-tasks' },
  {
    // A multi-select golden task being written: its known set is ticked, one box per option.
    name: 'golden-new-multi',
    path: '/golden-tasks',
    prepare: async (page) => {
      const form = page.getByRole('form', { name: 'New golden task' });
      await form.getByLabel('Answer', { exact: true }).selectOption('multi');
      await form.getByLabel('Options').fill('forklift\npallet\nperson\nempty aisle');
      await form.getByLabel('forklift').check();
      await form.getByLabel('person').check();
    },
  },
  {
    // A pairwise golden task being written: the prompt, its two candidates and the known better one.
    name: 'golden-new-pairwise',
    path: '/golden-tasks',
    prepare: async (page) => {
      const form = page.getByRole('form', { name: 'New golden task' });
      await form.getByLabel('Type').selectOption('AI_RESPONSE_RATING');
      await form.getByLabel('Answer', { exact: true }).selectOption('pairwise');
      await form.getByLabel('Prompt').fill(PAIR_EXAMPLE.prompt);
      await form.getByLabel('Candidate A').fill(PAIR_EXAMPLE.A);
      await form.getByLabel('Candidate B').fill(PAIR_EXAMPLE.B);
      await form.getByLabel('Allow a tie').check();
      await form.getByLabel('A is better').check();
    },
  },
  { name: 'exports', path: '/exports' },
  // The preference format, from a link that asks for ties: the box is ticked.
  { name: 'exports-preference', path: '/exports?format=preference&includeTies=true' },
  // The 3 German tasks (addGermanTasks) split 0.8/0.1/0.1: train 2, val 0, test 1, warned before the download.
  { name: 'exports-split-empty', path: '/exports?format=jsonl&locale=de&trainRatio=0.8&valRatio=0.1&testRatio=0.1' },
  { name: 'webhooks', path: '/webhooks' },
  {
    name: 'webhook-new',
    path: '/webhooks',
    dialog: true,
    prepare: async (page) => {
      await page.getByRole('button', { name: 'New webhook' }).click();
      await page.locator('dialog[open]').waitFor();
    },
  },
  { name: 'webhook', path: '/webhooks', prepare: (page) => openWebhook(page, DEMO_WEBHOOK) },
  {
    name: 'webhook-test',
    path: '/webhooks',
    prepare: async (page) => {
      await openWebhook(page, DEMO_WEBHOOK);
      await page.getByRole('button', { name: 'Send test event' }).click();
      await page.getByRole('status', { name: 'Test result' }).waitFor();
    },
  },
  {
    name: 'webhook-rotate',
    path: '/webhooks',
    dialog: true,
    prepare: async (page) => {
      await openWebhook(page, DEMO_WEBHOOK);
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      await page.locator('dialog[open]').waitFor();
    },
  },
  {
    name: 'webhook-rotated',
    path: '/webhooks',
    dialog: true,
    prepare: async (page) => {
      await openWebhook(page, DEMO_WEBHOOK);
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      const dialog = page.getByRole('dialog', { name: 'Rotate secret' });
      await dialog.getByLabel('I have copied the secret').check();
      await dialog.getByRole('button', { name: 'Rotate secret' }).click();
      await dialog.getByText('Secret rotated').waitFor();
    },
  },
  { name: 'webhook-disabled', path: '/webhooks', prepare: (page) => openWebhook(page, DISABLED_WEBHOOK) },
  { name: 'api-keys', path: '/api-keys' },
  {
    name: 'api-key-created',
    path: '/api-keys',
    dialog: true,
    prepare: async (page) => {
      await page.getByLabel('Name', { exact: true }).fill('Staging worker');
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.locator('dialog[open]').waitFor();
    },
  },
  {
    // Escape before the key was copied: the dialog stays, and says why.
    name: 'api-key-escape',
    path: '/api-keys',
    dialog: true,
    prepare: async (page) => {
      await page.getByLabel('Name', { exact: true }).fill('CI runner');
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.locator('dialog[open]').waitFor();
      await page.keyboard.press('Escape');
      await page.getByText('Copy the key first').waitFor();
    },
  },
  { name: 'billing', path: '/billing' },
  // The spending caps (addSpendingCaps): this month's committed against the monthly cap, a project that
  // refuses near its cap, one that holds at its cap with tasks held, and the form that caps another project.
  { name: 'billing-caps', path: '/billing', element: '#spending-caps' },
  {
    // The holding project's tasks: those past its cap are badged HELD instead of PENDING.
    name: 'tasks-held',
    path: '/tasks',
    prepare: async (page) => {
      await page.getByLabel('Filter by project').selectOption({ label: HOLDING_PROJECT });
      await page.waitForURL(/projectId=/);
    },
  },
  // A held task's drawer: why it waits, and why it cannot be changed, instead of the form.
  taskDrawer('tasks-held-drawer', '/tasks', { project: HOLDING_PROJECT, row: 'HELD' }),
  // The holding project's page: its cap reached, the tasks it holds, the form that changes it.
  { name: 'project-cap', path: '/projects', prepare: openProject(HOLDING_PROJECT) },
  // Deadlines and priority (addDeadlines): the open tasks at risk of missing their deadline on the overview
  // (its first five, and Load more), the tasks page and a project's page, soonest first, each with how far its
  // deadline is, its project's median completion time (the 5-minute default said as such), priority and status.
  {
    name: 'deadline-at-risk-overview',
    path: '/',
    element: '#at-risk',
    prepare: async (page) => {
      await freshUrgentTask?.();
      await page.reload();
    },
  },
  { name: 'deadline-at-risk-tasks', path: '/tasks' },
  { name: 'deadline-at-risk-project', path: '/projects', prepare: openProject(CATALOGUE_PROJECT), element: '#at-risk' },
  {
    // A task at risk opened from the list: its deadline (and how far it is) and priority, and the form that changes them.
    name: 'deadline-drawer',
    path: '/tasks',
    dialog: true,
    prepare: async (page) => {
      await page.locator('#at-risk tbody tr', { hasText: 'red kettle' }).getByRole('button').click();
      await page.locator('dialog[open]').getByRole('form', { name: 'Deadline and priority' }).waitFor();
    },
  },
  // An expired task: failed, in words, nothing charged.
  taskDrawer('deadline-drawer-expired', '/tasks?status=FAILED', { project: MODERATION_PROJECT, row: 'written by a bot' }),
  {
    // Create task in a project with a default deadline: a deadline typed in the person's time and a priority.
    name: 'deadline-create',
    path: '/tasks',
    dialog: true,
    prepare: async (page) => {
      await page.getByLabel('Filter by project').selectOption({ label: MODERATION_PROJECT });
      await page.waitForURL(/projectId=/);
      await page.getByRole('button', { name: 'Create task' }).click();
      const form = page.getByRole('form', { name: 'New task' });
      await form.getByLabel('Type').selectOption('BINARY_CHOICE');
      await form.getByLabel('Content').fill('Does this product photo show a weapon?');
      await form.getByLabel('Options').fill('yes\nno');
      const tomorrow = new Date(Date.now() + 24 * 3_600_000);
      await form.getByLabel('Deadline').fill(`${tomorrow.toISOString().slice(0, 10)}T18:00`);
      await form.getByLabel('Priority').fill('5');
    },
  },
  // A project's default deadline: its settings form and what Details says of it.
  {
    name: 'deadline-project-settings',
    path: '/projects',
    prepare: openProject(MODERATION_PROJECT),
    element: '.grid-2:has(form[aria-label="Project settings"])',
  },
  { name: 'deadline-project-new', path: '/projects', element: 'section[aria-label="New project"]' },
  // The recent events name why a task failed: Expired.
  { name: 'deadline-events', path: '/', element: 'section[aria-label="Recent events"]' },
  // Result review (addResultReview): two of Product reviews' results rejected, one of them decided again.
  {
    // A completed result about to be sent back: the reason typed, what a rejection does said before it.
    name: 'review-drawer-form',
    path: '/tasks?status=COMPLETED&type=SENTIMENT_ANALYSIS',
    dialog: true,
    prepare: async (page) => {
      await page.getByLabel('Filter by project').selectOption({ label: REVIEW_PROJECT });
      await page.waitForURL(/projectId=/);
      await settleOrGoOn(page);
      await page.locator('main table.tasks-table tbody tr', { hasNotText: 'Decided again' }).first().click();
      const drawer = page.locator('dialog[open]');
      await drawer.getByRole('button', { name: 'Reject result' }).click();
      await drawer.getByLabel('Reason').fill('Our guide labels reviews about the delivery alone neutral: they say nothing of the product.');
    },
  },
  // The rejected task, open again: VALIDATING, the rejected result with its confidence, the reason and when.
  taskDrawer('review-drawer-reopened', '/tasks', { project: REVIEW_PROJECT, row: /Decided again.*VALIDATING/ }),
  // The one decided again: its new result (revision 2), and no second rejection.
  taskDrawer('review-drawer-decided-again', '/tasks', { project: REVIEW_PROJECT, row: /Decided again.*(COMPLETED|FAILED)/ }),
  // The list tags both; the quality card counts them; the ledger refunds them; the events say so.
  {
    name: 'review-tasks',
    path: '/tasks',
    prepare: async (page) => {
      await page.getByLabel('Filter by project').selectOption({ label: REVIEW_PROJECT });
      await page.waitForURL(/projectId=/);
    },
  },
  { name: 'review-quality', path: '/projects', prepare: openProject(REVIEW_PROJECT), element: 'section[aria-label="Can these labels be trusted?"]' },
  { name: 'review-ledger', path: '/billing', element: 'section[aria-label="Ledger"]' },
  { name: 'review-events', path: '/', element: 'section[aria-label="Recent events"]' },
  { name: 'account', path: '/account' },
  // The organisation's team: roles (the founder's fixed), two invitations pending, the invite form.
  { name: 'members', path: '/members' },
  // Every change to the organisation, newest first: the seed's and addAuditHistory's, by the owner, an API
  // key and Concord's operator.
  { name: 'audit-log', path: '/audit-log' },
  {
    // Filtered to projects, the project change opened: its settings old → new.
    name: 'audit-log-filtered',
    path: '/audit-log',
    prepare: async (page) => {
      await page.getByLabel('Target type').selectOption({ label: 'Project' });
      await page.waitForURL(/targetType=project/);
      await settleOrGoOn(page);
      await page.locator('.audit-entry', { hasText: 'Changed project' }).first().locator('summary').click();
    },
  },
  {
    // The buyer is an admin of a second organisation: the header's picker lists both, with the role in each.
    name: 'organisation-picker',
    path: '/',
    prepare: async (page) => {
      await page.getByRole('button', { name: /Switch organisation/ }).click();
      await page.getByText('Act for', { exact: true }).waitFor();
    },
  },
];

/** On a phone the navigation folds behind Menu: opened, so the picture shows which pages the role has. */
async function openNavigation(page: Page) {
  const menu = page.getByRole('button', { name: 'Menu', exact: true });
  if (await menu.isVisible()) await menu.click();
}

/** Acts for another organisation through the header's picker, as a person would. */
async function actFor(page: Page, organisation: string) {
  await page.getByRole('button', { name: /Switch organisation/ }).click();
  await page.locator('.org-menu-item', { hasText: organisation }).click();
  await page.getByRole('button', { name: new RegExp(`^Organisation: ${organisation} `) }).waitFor();
  await settleOrGoOn(page);
}

/** A viewer of the demo organisation: the pages it may read, its buttons unavailable, no Import, API keys or Members. */
const VIEWER_SHOTS: Shot[] = [
  { name: 'viewer-overview', path: '/', prepare: openNavigation },
  {
    // Create task is there but unavailable: pressed (a phone has no hover for its tooltip), it says why.
    name: 'viewer-tasks',
    path: '/tasks',
    prepare: async (page) => {
      // force: Playwright does not press an aria-disabled control of itself; a person can.
      await page.getByRole('button', { name: 'Create task' }).click({ force: true });
      await page.getByRole('status').filter({ hasText: 'does not allow this' }).waitFor();
    },
  },
  { name: 'viewer-billing', path: '/billing' },
  // A page the role may not open, reached by its address.
  { name: 'viewer-members', path: '/members' },
];

/** A buyer who just signed up: no credit, no task. */
const NEWCOMER_SHOTS: Shot[] = [{ name: 'overview-new', path: '/' }];

const ADMIN_SHOTS: Shot[] = [
  { name: 'admin-platform', path: '/admin' },
  { name: 'admin-developers', path: '/admin/developers' },
  { name: 'admin-buyers', path: '/admin/buyers' },
  { name: 'admin-payouts', path: '/admin/payouts' },
  { name: 'admin-annotators', path: '/admin/annotators?show=all' },
  { name: 'admin-outbox', path: '/admin/outbox' },
];

const PREVIEW_CSV = [
  'type,content,options,locale,maxCents',
  ...Array.from(
    { length: 12 },
    (_, i) =>
      `SENTIMENT_ANALYSIS,"Review ${i + 1}: the parcel arrived ${i % 2 ? 'late and the box was crushed' : 'on time, well packed'}",positive|negative|neutral,en,20`,
  ),
].join('\n');

const PAIRWISE_CSV = [
  'type,content,options,answerKind,candidateA,candidateB,allowTie,group',
  ...[
    ['Fix crash on empty config file', 'fixed stuff', 'true'],
    ['Fix crash on empty config file', 'Handle an empty config file instead of crashing on startup', 'true'],
    ['fixed stuff', 'Handle an empty config file instead of crashing on startup', 'false'],
  ].map(([a, b, tie]) => `AI_RESPONSE_RATING,"Write a one-line commit message for the fix",,pairwise,"${a}","${b}",${tie},commit-messages`),
].join('\n');

const TEXT_CSV = [
  'type,content,options,answerKind,maxLength,validationsNeeded',
  'AI_RESPONSE_RATING,"Write a one-sentence reply to a customer whose parcel is three days late",,text,280,3',
  'AI_RESPONSE_RATING,"Summarise this release note for the changelog in one line: ""Fixed a crash when the config file is empty""",,text,,',
  'AI_RESPONSE_RATING,"Translate into plain English: ""Per our SLA, P1 incidents get a 15-minute first response""",,text,500,4',
].join('\n');

/** The seed's webhook (its URL answers 404), and one that Concord disabled after 3 days of failures (made here). */
const DEMO_WEBHOOK = 'demo-receiver-that-does-not-exist';
const DISABLED_WEBHOOK = 'orders-sync-retired';

async function openWebhook(page: Page, urlPart: string) {
  await page.getByRole('link', { name: new RegExp(urlPart) }).click();
  await page.waitForURL(/\/webhooks\/.+/);
}

/**
 * A webhook on the extended policy that the service disabled: made through the API, then given the state
 * the delivery worker writes after 3 days of failed attempts (no test can wait 3 days).
 */
async function addDisabledWebhook(url: string, databaseUrl: string, buyer: { email: string; password: string }) {
  const api = async (method: string, route: string, token: string | undefined, body: unknown) => {
    const response = await fetch(`${url}/api/v1${route}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const { token } = (await api('POST', '/auth/login', undefined, buyer)) as { token: string };
  const secret = `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')}`;
  const config = (await api('POST', '/webhooks/configs', token, {
    url: `${url}/${DISABLED_WEBHOOK}`,
    events: ['task.completed'],
    secret,
    retryPolicy: 'extended',
  })) as { id: string };
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `UPDATE webhook_configs SET is_active = false, disabled_at = now(), failing_since = now() - interval '3 days',
       disabled_reason = 'Every delivery attempt failed for 3 days (last error: HTTP 503)' WHERE id = $1`,
      [config.id],
    );
  } finally {
    await client.end();
  }
}

/**
 * Three German tasks answered to completion by the seed's annotator app (it asks for German tasks only, so
 * the seed's open tasks stay open): too few for a 0.8/0.1/0.1 split to give the validation file a record.
 */
async function addGermanTasks(url: string, buyer: { email: string; password: string }, developerApiKey: string) {
  const login = await call<{ token: string }>(url, 'POST', '/auth/login', undefined, buyer);
  const token = login.body.token;
  for (const content of [
    'Ist dieser Satz korrekt? „Er hat gestern gegangen.“',
    'Ist dieser Satz korrekt? „Wir sind nach Hause gelaufen.“',
    'Ist dieser Satz korrekt? „Sie lesen gern Bücher.“',
  ]) {
    const created = await call(url, 'POST', '/tasks', token, { type: 'BINARY_CHOICE', content, options: ['yes', 'no'], locale: 'de', validationsNeeded: 3 });
    if (created.status !== 201) throw new Error(`POST /tasks: ${created.status} ${JSON.stringify(created.body)}`);
  }
  const completed = async () => (await call<{ counts: { COMPLETED: number } }>(url, 'GET', '/tasks/counts?locale=de', token)).body.counts.COMPLETED;
  for (let n = 0; n < 200 && (await completed()) < 3; n += 1) {
    const annotatorId = `lena-${n % 8}`;
    const next = await fetch(`${url}/api/v1/sdk/tasks/next?annotatorId=${annotatorId}&locale=de`, { headers: { authorization: `Bearer ${developerApiKey}` } });
    if (next.status === 204) continue;
    const { task } = (await next.json()) as { task: { id: string; content: string } };
    const answer = task.content.includes('gegangen') ? 'no' : 'yes';
    await call(url, 'POST', `/sdk/tasks/${task.id}/complete`, developerApiKey, { annotatorId, answer, timeSpentMs: 2400 + n * 37 });
  }
  if ((await completed()) < 3) throw new Error('the German tasks did not complete');
}

/**
 * Changes for the audit log beyond the seed's (its projects, batches, golden tasks, webhook, keys, deposits
 * and invitations): an API key that creates a project and a batch in it, the owner tuning that project,
 * an invitation sent and revoked, Concord's operator adding credit, and the key revoked (its entries keep
 * its name).
 */
async function addAuditHistory(url: string, buyer: { email: string; password: string }, admin: { email: string; password: string }) {
  const ok = async <T>(method: string, route: string, token: string | undefined, body?: unknown): Promise<T> => {
    const answer = await call<T>(url, method, route, token, body);
    if (answer.status >= 300) throw new Error(`${method} ${route}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const { token } = await ok<{ token: string }>('POST', '/auth/login', undefined, buyer);
  const { apiKey } = await ok<{ apiKey: { id: string; secret: string } }>('POST', '/api-keys', token, { name: 'Deploy bot' });
  const project = await ok<{ id: string }>('POST', '/projects', apiKey.secret, {
    name: 'Contract clauses (pilot)',
    description: 'Is each clause standard or does it need a lawyer?',
  });
  await ok('POST', '/tasks/batch', apiKey.secret, {
    tasks: ['Either party may terminate with 30 days notice.', 'The supplier’s liability is unlimited.', 'Invoices are due within 14 days.'].map((content) => ({
      type: 'BINARY_CHOICE',
      content,
      options: ['standard', 'needs review'],
      projectId: project.id,
      validationsNeeded: 3,
    })),
  });
  await ok('PATCH', `/projects/${project.id}`, token, { targetConfidence: 0.97, maxResponses: 7, description: 'Standard clause, or one for legal review?' });
  const { invitation } = await ok<{ invitation: { id: string } }>('POST', '/invitations', token, { email: 'auditor@kpmg.example', role: 'viewer' });
  await ok('DELETE', `/invitations/${invitation.id}`, token);
  const me = await ok<{ buyer: { id: string } }>('GET', '/auth/me', token);
  const operator = await ok<{ token: string }>('POST', '/admin/login', undefined, admin);
  await ok('POST', `/admin/buyers/${me.buyer.id}/credits`, operator.token, { amountCents: 5_000, reason: 'Goodwill credit for the 12 March outage' });
  await ok('DELETE', `/api-keys/${apiKey.id}`, token);
}

/**
 * Spending caps beyond the seed's (it sets none): a holding project capped at three tasks' budgets with
 * eight tasks sent (three reserved, five held), a refusing cap on Product reviews at about 85 % of what it
 * commits, and a monthly cap of about 1.6 times this month's commitment — each figure read from
 * GET /billing/caps, so the bars show an open, a near and a reached cap whatever the seed committed.
 */
async function addSpendingCaps(url: string, buyer: { email: string; password: string }) {
  const ok = async <T>(method: string, route: string, token: string | undefined, body?: unknown): Promise<T> => {
    const answer = await call<T>(url, method, route, token, body);
    if (answer.status >= 300) throw new Error(`${method} ${route}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const { token } = await ok<{ token: string }>('POST', '/auth/login', undefined, buyer);
  const { priceCents } = await ok<{ priceCents: number }>('GET', '/meta', undefined);
  const project = await ok<{ id: string }>('POST', '/projects', token, {
    name: HOLDING_PROJECT,
    description: 'What each caller asks for, from the support line’s transcripts',
  });
  await ok('PUT', `/projects/${project.id}/budget-cap`, token, { capCents: 3 * priceCents, capAction: 'hold' });
  const created = await ok<{ tasks: { held?: true }[] }>('POST', '/tasks/batch', token, {
    tasks: [
      'I was charged twice for my March invoice, can you fix it?',
      'How do I change the e-mail address on my account?',
      'The parcel never arrived and the tracking stopped on Monday.',
      'Please cancel my subscription at the end of the month.',
      'Can I get a refund for the annual plan I bought yesterday?',
      'The app crashes when I open the settings page.',
      'I want to upgrade to the team plan for five people.',
      'Your courier left the box in the rain and it is soaked.',
    ].map((content) => ({
      type: 'BINARY_CHOICE',
      content: `“${content}” Does the caller ask for money back?`,
      options: ['yes', 'no'],
      maxCents: priceCents,
      validationsNeeded: 3,
      projectId: project.id,
    })),
  });
  if (created.tasks.filter((task) => task.held).length !== 5) throw new Error(`expected 5 held tasks, got ${JSON.stringify(created.tasks)}`);
  const caps = await ok<{ monthly: { committedCents: number }; projects: unknown[] }>('GET', '/billing/caps', token);
  const projects = await ok<{ projects: { id: string; name: string }[] }>('GET', '/projects?limit=100', token);
  const reviews = projects.projects.find((candidate) => candidate.name === 'Product reviews');
  if (!reviews) throw new Error('the demo has no Product reviews project');
  // The project's commitment, read back from its cap: set high first, then at ~85 % full.
  const probe = await ok<{ committedCents: number }>('PUT', `/projects/${reviews.id}/budget-cap`, token, { capCents: 10_000_000, capAction: 'refuse' });
  const roundUp = (cents: number, step: number) => Math.max(step, Math.ceil(cents / step) * step);
  await ok('PUT', `/projects/${reviews.id}/budget-cap`, token, { capCents: roundUp(probe.committedCents / 0.85, 100), capAction: 'refuse' });
  await ok('PUT', '/billing/caps/monthly', token, { capCents: roundUp(caps.monthly.committedCents * 1.6, 5_000) });
}

/**
 * Deadlines beyond the seed's (it sets none): Catalogue checks, whose three completed tasks (answered in
 * Arabic, the demo's only tasks in that locale, so the seed's open tasks stay open) are made to have taken
 * six hours each, with six open tasks whose deadlines are nearer than that (one answered once, so
 * VALIDATING) and one three days away; and Store moderation, with a default deadline of a day and nothing
 * completed, so its task due in five minutes (sent again before each width's deadline pictures:
 * freshUrgentTask) is compared with the service's default median; and a task made to expire (its deadline
 * moved into the past, where the expiry job closes it).
 */
async function addDeadlines(url: string, databaseUrl: string, buyer: { email: string; password: string }, developerApiKey: string) {
  const ok = async <T>(method: string, route: string, token: string | undefined, body?: unknown): Promise<T> => {
    const answer = await call<T>(url, method, route, token, body);
    if (answer.status >= 300) throw new Error(`${method} ${route}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const { token } = await ok<{ token: string }>('POST', '/auth/login', undefined, buyer);
  const catalogue = await ok<{ id: string }>('POST', '/projects', token, { name: CATALOGUE_PROJECT, description: 'Duplicate and mislabelled listings' });
  const moderation = await ok<{ id: string }>('POST', '/projects', token, {
    name: MODERATION_PROJECT,
    description: 'Reviews and photos reported by shoppers',
    defaultDeadlineHours: 24,
  });
  const create = async (projectId: string, content: string, fields: Record<string, unknown> = {}) =>
    (
      await ok<{ taskId: string }>('POST', '/tasks', token, {
        type: 'BINARY_CHOICE',
        content,
        options: ['yes', 'no'],
        validationsNeeded: 3,
        projectId,
        ...fields,
      })
    ).taskId;
  const answerArabic = async (annotatorId: string) => {
    const next = await fetch(`${url}/api/v1/sdk/tasks/next?annotatorId=${annotatorId}&locale=ar`, { headers: { authorization: `Bearer ${developerApiKey}` } });
    if (next.status === 204) return false;
    const { task } = (await next.json()) as { task: { id: string } };
    await ok('POST', `/sdk/tasks/${task.id}/complete`, developerApiKey, { annotatorId, answer: 'no', timeSpentMs: 3100 });
    return true;
  };
  for (const content of [
    'هل هذان الإعلانان مكرران؟ «غلاية كهربائية حمراء 1.7 لتر»',
    'هل هذان الإعلانان مكرران؟ «محمصة خبز زرقاء»',
    'هل هذان الإعلانان مكرران؟ «كوب سيراميك 350 مل»',
  ]) {
    await create(catalogue.id, content, { locale: 'ar' });
  }
  const completed = async () => (await ok<{ counts: { COMPLETED: number } }>('GET', `/tasks/counts?projectId=${catalogue.id}`, token)).counts.COMPLETED;
  for (let n = 0; n < 200 && (await completed()) < 3; n += 1) await answerArabic(`noor-${n % 8}`);
  if ((await completed()) < 3) throw new Error('the catalogue’s Arabic tasks did not complete');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`UPDATE tasks SET created_at = validated_at - interval '6 hours' WHERE project_id = $1 AND status = 'COMPLETED'`, [catalogue.id]);
    const soon = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
    let urgent: string | null = null;
    freshUrgentTask = async () => {
      // The last one, unless it expired meanwhile (a FAILED task cannot be deleted, and stays as it is).
      if (urgent && (await ok<{ status: string }>('GET', `/tasks/${urgent}`, token)).status === 'PENDING') await ok('DELETE', `/tasks/${urgent}`, token);
      urgent = await create(moderation.id, 'Is this review of the garden hose written by a competitor?', { deadline: soon(4.9), priority: 8 });
    };
    await freshUrgentTask();
    for (const [content, minutes, priority, locale] of [
      ['Is the red kettle (1.7 l) listed twice, as “Kettle red 1.7L” and “Red electric kettle”?', 35, 5, 'en'],
      ['Is the “Oak desk, 140 cm” in the right category (Office furniture)?', 80, 0, 'en'],
      ['هل هذان الإعلانان لنفس الحذاء الرياضي؟', 165, -2, 'ar'],
      ['Is the price of the ceramic mug set per mug or per set of four?', 240, 0, 'en'],
      ['Is “Steel water bottle 750 ml” a duplicate of “Insulated bottle, 0.75 l”?', 300, 3, 'en'],
      ['Does the photo of the blue toaster match its title?', 330, 0, 'en'],
    ] as const) {
      await create(catalogue.id, content, { deadline: soon(minutes), priority, locale });
    }
    // The Arabic one answered once: VALIDATING.
    await answerArabic('noor-1');
    await create(catalogue.id, 'Is the linen tablecloth listed in two colours by mistake?', { deadline: soon(3 * 24 * 60) });
    const expired = await create(moderation.id, 'Is this review written by a bot? “Great product great price great seller”');
    await client.query(`UPDATE tasks SET deadline = now() - interval '1 second' WHERE id = $1`, [expired]);
    for (let n = 0; n < 100; n += 1) {
      const { failureReason } = await ok<{ failureReason: string | null }>('GET', `/tasks/${expired}`, token);
      if (failureReason === 'EXPIRED') return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error('the expired task did not expire');
  } finally {
    await client.end();
  }
}

/**
 * Result review: two of Product reviews' completed results rejected through the API, each with a reason;
 * the first (a hedged review, if the first page shows one) is then decided again by the demo's annotators,
 * answered neutral as its reason asks; the second stays open, VALIDATING at its raised target.
 */
async function addResultReview(url: string, buyer: { email: string; password: string }, developerApiKey: string) {
  const ok = async <T>(method: string, route: string, token: string | undefined, body?: unknown): Promise<T> => {
    const answer = await call<T>(url, method, route, token, body);
    if (answer.status >= 300) throw new Error(`${method} ${route}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const { token } = await ok<{ token: string }>('POST', '/auth/login', undefined, buyer);
  const { projects } = await ok<{ projects: { id: string; name: string }[] }>('GET', '/projects?limit=100', token);
  const project = projects.find((candidate) => candidate.name === REVIEW_PROJECT);
  if (!project) throw new Error(`the demo has no ${REVIEW_PROJECT} project`);
  type Listed = { id: string; content: string; locale: string; status: string };
  // Two of the first page the tasks page shows of the project (newest first), so both rows are on it.
  const { tasks } = await ok<{ tasks: Listed[] }>('GET', `/tasks?projectId=${project.id}&limit=25`, token);
  const completed = tasks.filter((task) => task.status === 'COMPLETED');
  const [hedged, broke] = [
    ...completed.filter((task) => task.content.startsWith('It works, I guess.')),
    ...completed.filter((task) => !task.content.startsWith('It works, I guess.')),
  ];
  if (!hedged || !broke) throw new Error(`fewer than two completed ${REVIEW_PROJECT} tasks on the first page`);
  await ok('POST', `/tasks/${hedged.id}/reject`, token, {
    reason: hedged.content.startsWith('It works, I guess.')
      ? 'Our guide labels hedged praise (“I guess”) neutral: please decide it again with more answers.'
      : 'Spot check: our reviewer labels this one neutral.',
  });
  await ok('POST', `/tasks/${broke.id}/reject`, token, { reason: 'Spot check: the review team reads this one differently.' });
  // The first decided again: served first among the buyer's tasks (priority 10), answered as the guide says.
  await ok('PATCH', `/tasks/${hedged.id}`, token, { priority: 10 });
  const status = async () => (await ok<{ status: string }>('GET', `/tasks/${hedged.id}`, token)).status;
  for (let n = 0; n < 60 && (await status()) === 'VALIDATING'; n += 1) {
    const annotatorId = `review-${n}`;
    const next = await fetch(`${url}/api/v1/sdk/tasks/next?annotatorId=${annotatorId}&locale=${hedged.locale}&types=SENTIMENT_ANALYSIS`, {
      headers: { authorization: `Bearer ${developerApiKey}` },
    });
    if (next.status === 204) continue;
    const { task } = (await next.json()) as { task: { id: string } };
    await ok('POST', `/sdk/tasks/${task.id}/complete`, developerApiKey, { annotatorId, answer: 'neutral', timeSpentMs: 2400 });
  }
  if ((await status()) === 'VALIDATING') throw new Error('the rejected task was not decided again');
}

/** Screenshots are taken even of a page that never settles: the picture then shows what went wrong. */
const settleOrGoOn = (page: Page) => settle(page).catch(() => undefined);

async function main() {
  await mkdir(OUT, { recursive: true });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'concord-shots-'));
  const database = await benchDatabase('screenshots');
  const server = await startServer(database.url, {
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    ADMIN_EMAIL: '',
    ADMIN_PASSWORD: '',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  });
  const browser = await launchBrowser();
  try {
    const admin = JSON.parse(await readFile(path.join(dataDir, 'local-admin.json'), 'utf8')) as { email: string; password: string };
    const demo = await seedDemo({ url: server.url, admin, tasks: 240, email: 'demo@northwind.example' });
    const team = demo.team;
    if (!team) throw new Error('the demo has no team: the development e-mail outbox was not found');
    await addDisabledWebhook(server.url, database.url, demo.buyer);
    const only = process.argv.slice(2);
    const wanted = (name: string) => only.length === 0 || only.some((prefix) => name.startsWith(prefix));
    if (wanted('exports-split-empty')) await addGermanTasks(server.url, demo.buyer, demo.developerApiKey);
    if (wanted('audit')) await addAuditHistory(server.url, demo.buyer, admin);
    if (['billing-caps', 'tasks-held', 'project-cap'].some(wanted)) await addSpendingCaps(server.url, demo.buyer);
    if (wanted('deadline')) await addDeadlines(server.url, database.url, demo.buyer, demo.developerApiKey);
    if (wanted('review')) await addResultReview(server.url, demo.buyer, demo.developerApiKey);
    const newcomer = { email: 'new@fieldwork.example', password: DEMO_PASSWORD };
    const registered = await call(server.url, 'POST', '/auth/register', undefined, { ...newcomer, companyName: 'Fieldwork Labs' });
    if (registered.status !== 201) throw new Error(`POST /auth/register: ${registered.status}`);
    for (const [label, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      // bypassCSP: Playwright's waitForFunction evaluates its predicate, which the service's CSP forbids.
      const context = await browser.newContext({ viewport, bypassCSP: true });
      const page = await context.newPage();
      page.on('console', (message) => message.type() === 'error' && process.stderr.write(`console error: ${message.text()}\n`));
      for (const [name, loginPath] of [
        ['login', '/login'],
        ['register', '/register'],
        ['admin-login', '/admin/login'],
        // An invitation to an address without an account: the link asks for a password (and stays unused).
        ['invitation-password', `/invitation#token=${encodeURIComponent(team.pendingInvitationToken)}`],
        ['invitation-invalid', '/invitation#token=used-revoked-or-expired'],
      ] as const) {
        if (!wanted(name)) continue;
        // A new document each time: a link that differs only in its #fragment would not reload the page.
        await page.goto('about:blank');
        await page.goto(`${server.url}${loginPath}`);
        await settleOrGoOn(page);
        await page.screenshot({ path: path.join(OUT, `${name}-${label}.png`), fullPage: true });
      }
      for (const { shots, loginPath, account, organisation } of [
        { shots: BUYER_SHOTS, loginPath: '/login', account: demo.buyer },
        { shots: NEWCOMER_SHOTS, loginPath: '/login', account: newcomer },
        { shots: VIEWER_SHOTS, loginPath: '/login', account: team.viewer, organisation: 'Northwind AI' },
        { shots: ADMIN_SHOTS, loginPath: '/admin/login', account: admin },
      ]) {
        if (!shots.some((shot) => wanted(shot.name))) continue;
        await logIn(page, server.url, loginPath, account);
        if (organisation) await actFor(page, organisation);
        for (const shot of shots.filter((candidate) => wanted(candidate.name))) {
          await page.goto(`${server.url}${shot.path}`);
          await settleOrGoOn(page);
          if (shot.prepare) {
            await shot.prepare(page);
            await settleOrGoOn(page);
          }
          const file = path.join(OUT, `${shot.name}-${label}.png`);
          if (shot.element) {
            // The element's stretch of the whole page, a margin around it: an element's own picture would be
            // taken scrolled, with the sticky header drawn over it.
            await page.evaluate('window.scrollTo(0, 0)');
            const box = await page.locator(shot.element).boundingBox();
            if (!box) throw new Error(`${shot.name}: ${shot.element} is not on the page`);
            const margin = 12;
            const x = Math.max(0, box.x - margin);
            const y = Math.max(0, box.y - margin);
            await page.screenshot({
              path: file,
              fullPage: true,
              clip: { x, y, width: Math.min(viewport.width - x, box.width + 2 * margin), height: box.height + 2 * margin },
            });
          } else if (shot.dialog) {
            const height = (await page.evaluate(`document.querySelector('dialog[open]').scrollHeight`)) as number;
            await page.setViewportSize({ width: viewport.width, height: Math.max(viewport.height, height + 48) });
            await page.screenshot({ path: file });
            await page.setViewportSize(viewport);
          } else {
            // A click further down scrolled the window: the sticky header would be drawn there.
            await page.evaluate('window.scrollTo(0, 0)');
            await page.screenshot({ path: file, fullPage: true });
          }
          process.stderr.write(`${shot.name}-${label}.png\n`);
        }
        await page.evaluate('sessionStorage.clear()');
      }
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
    await database.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
