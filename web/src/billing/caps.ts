// Spending caps in the dashboard's words (README, "Spending caps"): a cap typed in dollars, checked as the
// API checks it (capCentsSchema: whole cents, 0 to MAX_CAP_CENTS), how far what is committed has gone
// towards a cap, and the sentences the Billing page, the project page and the overview say about caps.
// Pure, so every figure and sentence is tested without a browser.
import { capCentsSchema, MAX_CAP_CENTS, type CapAction } from '@concord/contract';
import { formatCents, formatCount, parseDollars } from '../ui/format';

export type { CapAction };

/** The Billing page's spending caps card, as a link's anchor: /billing#spending-caps. */
export const SPENDING_CAPS_ANCHOR = 'spending-caps';

/** A cap typed in dollars: its cents, or why it is not one. */
export type CapAmount = { cents: number; problem: null } | { cents: null; problem: string };

/** The cap typed in the field ("2000", "$1,250.50"), read as the API will check it. */
export function readCapDollars(text: string): CapAmount {
  if (text.trim() === '') return { cents: null, problem: 'Enter the cap in dollars, such as 500 or 2,000.' };
  if (/^\s*[-−]/.test(text)) return { cents: null, problem: 'A cap cannot be negative: enter 0 or more.' };
  const cents = parseDollars(text);
  if (cents === null) return { cents: null, problem: 'Enter an amount in dollars, such as 500 or 1,250.50 (at most two decimals).' };
  if (cents > MAX_CAP_CENTS) return { cents: null, problem: `The largest cap is ${formatCents(MAX_CAP_CENTS)}.` };
  // The contract's own schema has the last word, so the form refuses exactly what the service refuses.
  if (!capCentsSchema.safeParse(cents).success) return { cents: null, problem: `Enter an amount from $0.00 to ${formatCents(MAX_CAP_CENTS)}.` };
  return { cents, problem: null };
}

/** A cap in cents as the field shows it to be changed: "2000.00". */
export const capDollarsText = (cents: number | null): string => (cents === null ? '' : (cents / 100).toFixed(2));

/** The hint under every cap field. */
export const CAP_RANGE_HINT = `In dollars, from $0.00 (no new work) to ${formatCents(MAX_CAP_CENTS)}.`;

export type CapState = 'open' | 'near' | 'reached';

export interface CapUsage {
  /** How much of the bar is filled: 0 to 1. */
  share: number;
  /** Committed as a whole percentage of the cap, rounded down (so 100 only once the cap is reached); above 100 past it. */
  percent: number;
  /** What is left under the cap (0 once reached). */
  remainingCents: number;
  /** How far past the cap what is committed is (a cap lowered below it), else 0. */
  overCents: number;
  /** open; near from 80 % of the cap; reached once nothing more fits. */
  state: CapState;
}

/** The share of the cap from which a bar turns amber. */
export const NEAR_CAP_SHARE = 0.8;

/** How far what is committed has gone towards a cap. */
export function capUsage(committedCents: number, capCents: number): CapUsage {
  const committed = Math.max(0, committedCents);
  const reached = committed >= capCents;
  const percent = capCents === 0 ? (committed === 0 ? 100 : Infinity) : Math.floor((committed * 100) / capCents);
  return {
    share: capCents === 0 ? 1 : Math.min(1, committed / capCents),
    percent,
    remainingCents: Math.max(0, capCents - committed),
    overCents: Math.max(0, committed - capCents),
    state: reached ? 'reached' : committed >= capCents * NEAR_CAP_SHARE ? 'near' : 'open',
  };
}

/** "63 %", "more than 999 %" for a zero cap passed. */
export function percentWords(usage: CapUsage): string {
  return Number.isFinite(usage.percent) && usage.percent <= 999 ? `${usage.percent} %` : 'more than 999 %';
}

/** "$1,254.30 of $2,000.00 committed" — the headline figures of a cap. */
export const committedOfCap = (committedCents: number, capCents: number): string => `${formatCents(committedCents)} of ${formatCents(capCents)} committed`;

/**
 * What is left under a cap, or what happens now that nothing more fits: a holding project holds its new
 * tasks, every other cap refuses them.
 */
export function roomWords(committedCents: number, capCents: number, action: CapAction = 'refuse'): string {
  const usage = capUsage(committedCents, capCents);
  const past = action === 'hold' ? 'new tasks are held' : 'new work is refused';
  if (usage.overCents > 0) return `${formatCents(usage.overCents)} over the cap: ${past} until it is raised.`;
  if (usage.state === 'reached') return `The cap is reached: ${past} until it is raised.`;
  return `${formatCents(usage.remainingCents)} left.`;
}

/** "March 2026" from the API's YYYY-MM. */
export function monthWords(month: string): string {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  if (!match) return month;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1));
  return date.toLocaleDateString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** "No task held", "1 task held", "1,204 tasks held". */
export function heldWords(count: number): string {
  if (count === 0) return 'No task held';
  return `${formatCount(count)} ${count === 1 ? 'task' : 'tasks'} held`;
}

/** What a project's cap does to a task past it: the radio's label and its one line. */
export const CAP_ACTION_WORDS: Readonly<Record<CapAction, { label: string; short: string; description: string }>> = {
  refuse: {
    label: 'Refuse new tasks',
    short: 'Refuses',
    description: 'A creation that would pass the cap is refused whole (402 BUDGET_CAP_REACHED): nothing is created.',
  },
  hold: {
    label: 'Hold new tasks',
    short: 'Holds',
    description: 'Tasks past the cap are created but held — nothing reserved, not shown to annotators — until the cap is raised.',
  },
};

/** What the Billing page says once the monthly cap is saved. */
export const monthlyCapSaved = (capCents: number | null): string =>
  capCents === null ? 'The monthly cap is removed: this month’s tasks are no longer capped.' : `The monthly cap is now ${formatCents(capCents)}.`;

interface ProjectCapFigures {
  name: string;
  capCents: number | null;
  capAction: CapAction;
  heldTasks: number;
}

/**
 * What the page says once a project's cap is saved: the cap, and the held tasks it released (setting a
 * cap releases them oldest first as far as the caps and the balance allow) or that are still held.
 */
export function projectCapSaved(after: ProjectCapFigures, heldBefore: number): string {
  const cap =
    after.capCents === null
      ? `The budget cap of ${after.name} is removed.`
      : `The budget cap of ${after.name} is now ${formatCents(after.capCents)}; past it, new tasks are ${after.capAction === 'hold' ? 'held' : 'refused'}.`;
  const released = Math.max(0, heldBefore - after.heldTasks);
  const releasedWords = released > 0 ? ` ${formatCount(released)} held ${released === 1 ? 'task was' : 'tasks were'} released and reserved.` : '';
  const still =
    after.heldTasks > 0
      ? ` ${formatCount(after.heldTasks)} ${after.heldTasks === 1 ? 'task is' : 'tasks are'} still held: ${
          after.capCents === null ? 'the monthly cap or the available balance has no room for them' : 'the caps or the available balance have no room for them'
        }.`
      : '';
  return `${cap}${releasedWords}${still}`;
}

/** budget.cap_reached's payload as the overview words it: which cap, and what was committed under it. */
export function capReachedWords(payload: Record<string, unknown>, projectName?: string): string {
  const cap = typeof payload.capCents === 'number' ? payload.capCents : null;
  const committed = typeof payload.committedCents === 'number' ? payload.committedCents : null;
  const required = typeof payload.requiredCents === 'number' ? payload.requiredCents : null;
  const which =
    payload.scope === 'organisation'
      ? 'Monthly cap'
      : projectName
        ? `${projectName}: budget cap`
        : payload.scope === 'project'
          ? 'A project’s budget cap'
          : 'A cap';
  const figures = cap !== null ? ` of ${formatCents(cap)}` : '';
  // committedCents is what was committed before the request the cap stopped; requiredCents what it asked for.
  const under = committed !== null ? ` (${formatCents(committed)} committed${required !== null ? `, ${formatCents(required)} more asked for` : ''})` : '';
  return `${which}${figures} reached${under}`;
}
