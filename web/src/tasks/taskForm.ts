// The rules the task forms (Create task, the drawer's Change task) share: reading the budget typed in
// dollars and the answers needed, checked as the API checks them, and the API's refusal worded next to
// the field it names.
import { mapFieldErrors, type FieldMessages, type FormErrors } from '../api/fieldErrors';
import { formatCents, parseDollars } from '../ui/format';

export type TaskField = 'type' | 'content' | 'options' | 'locale' | 'maxCents' | 'validationsNeeded' | 'projectId';
const TASK_FIELDS: readonly TaskField[] = ['type', 'content', 'options', 'locale', 'maxCents', 'validationsNeeded', 'projectId'];

/** contract §4: maxCents 20–100 000, validationsNeeded 1–25 (default 3). */
export const MIN_BUDGET_CENTS = 20;
export const MAX_BUDGET_CENTS = 100_000;
export const MIN_ANSWERS = 1;
export const MAX_ANSWERS = 25;
export const DEFAULT_VALIDATIONS_NEEDED = 3;
/** contract §4: a task's content is 1 to 100 000 characters. */
export const MAX_CONTENT_LENGTH = 100_000;

/** The lowest budget the service accepts: a task must afford its price (GET /meta's priceCents), and 20 cents at least. */
export const budgetFloorCents = (priceCents: number | undefined): number => Math.max(priceCents ?? MIN_BUDGET_CENTS, MIN_BUDGET_CENTS);

const budgetRule = (floorCents: number) => `Give a budget from ${formatCents(floorCents)} (the task price) to ${formatCents(MAX_BUDGET_CENTS)}.`;
const ANSWERS_RULE = `Give a whole number of answers from ${MIN_ANSWERS} to ${MAX_ANSWERS}.`;

export interface BudgetAndAnswers {
  /** Cents, or undefined when left empty where empty means the default. */
  maxCents: number | undefined;
  validationsNeeded: number | undefined;
  errors: FieldMessages<'maxCents' | 'validationsNeeded'>;
}

/**
 * The budget (dollars, "0.20" or "$1.50") and answers needed as typed, checked against the API's
 * bounds. With `required`, an empty field is an error; without, it is left to the API's default.
 */
export function readBudgetAndAnswers(
  budgetText: string,
  answersText: string,
  { floorCents, required }: { floorCents: number; required: boolean },
): BudgetAndAnswers {
  const errors: BudgetAndAnswers['errors'] = {};
  const budget = budgetText.trim();
  const answers = answersText.trim();
  let maxCents: number | undefined;
  let validationsNeeded: number | undefined;
  if (budget !== '' || required) {
    const cents = parseDollars(budget);
    if (cents === null) errors.maxCents = 'Give the budget in dollars, for example 0.20 or 1.50.';
    else if (cents < floorCents || cents > MAX_BUDGET_CENTS) errors.maxCents = budgetRule(floorCents);
    else maxCents = cents;
  }
  if (answers !== '' || required) {
    const n = /^\d+$/.test(answers) ? Number(answers) : Number.NaN;
    if (!(n >= MIN_ANSWERS && n <= MAX_ANSWERS)) errors.validationsNeeded = ANSWERS_RULE;
    else validationsNeeded = n;
  }
  return { maxCents, validationsNeeded, errors };
}

/** Options typed one per line: trimmed, blank lines dropped (the service refuses blank options). */
export const splitOptions = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** The API's answer to a task form (POST /tasks, PATCH /tasks/:id), next to the fields it names. */
export function taskFormErrors(error: unknown, floorCents: number): FormErrors<TaskField> {
  return mapFieldErrors(error, {
    fields: TASK_FIELDS,
    codeFields: { INSUFFICIENT_CREDITS: 'maxCents' },
    missing: { type: 'Choose a task type.', content: 'Give the content to label.', options: 'Give at least two options, one per line.' },
    rules: {
      type: 'Choose one of the five task types.',
      content: 'Give the content to label: 1 to 100 000 characters.',
      options: 'Give 2 to 50 distinct options, one per line, each at most 500 characters.',
      locale: 'Choose one of the six locales.',
      maxCents: budgetRule(floorCents),
      validationsNeeded: ANSWERS_RULE,
      projectId: 'Choose one of your projects, or none.',
    },
  });
}
