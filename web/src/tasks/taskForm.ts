// The rules the task forms (Create task, the drawer's Change task) share: reading the budget typed in
// dollars and the answers needed, checked as the API checks them, and the API's refusal worded next to
// the field it names.
// The bounds are the API's own (@concord/contract).
import {
  budgetFloorCents,
  DEFAULT_MAX_CENTS,
  MAX_CONTENT_LENGTH,
  MAX_MAX_CENTS,
  MAX_OPTION_LENGTH,
  MAX_OPTIONS,
  MAX_VALIDATIONS_NEEDED,
  MIN_OPTIONS,
  MIN_VALIDATIONS_NEEDED,
  TASK_FIELDS,
  TASK_TYPES,
  LOCALES,
  validationsNeededSchema,
  type TaskField,
} from '@concord/contract';
import { mapFieldErrors, type FieldMessages, type FormErrors } from '../api/fieldErrors';
import { formatCents, parseDollars } from '../ui/format';

/** The budget floor before GET /meta has answered: the contract's least budget. */
export const floorCentsFor = (priceCents: number | undefined): number => budgetFloorCents(priceCents ?? DEFAULT_MAX_CENTS);

const budgetRule = (floorCents: number) => `Give a budget from ${formatCents(floorCents)} (the task price) to ${formatCents(MAX_MAX_CENTS)}.`;
const ANSWERS_RULE = `Give a whole number of answers from ${MIN_VALIDATIONS_NEEDED} to ${MAX_VALIDATIONS_NEEDED}.`;

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
    else if (cents < floorCents || cents > MAX_MAX_CENTS) errors.maxCents = budgetRule(floorCents);
    else maxCents = cents;
  }
  if (answers !== '' || required) {
    const n = /^\d+$/.test(answers) ? Number(answers) : Number.NaN;
    if (!validationsNeededSchema.safeParse(n).success) errors.validationsNeeded = ANSWERS_RULE;
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
      type: `Choose one of the ${TASK_TYPES.length} task types.`,
      content: `Give the content to label: 1 to ${MAX_CONTENT_LENGTH.toLocaleString('en-US').replace(/,/g, ' ')} characters.`,
      options: `Give ${MIN_OPTIONS} to ${MAX_OPTIONS} distinct options, one per line, each at most ${MAX_OPTION_LENGTH} characters.`,
      locale: `Choose one of the ${LOCALES.length} locales.`,
      maxCents: budgetRule(floorCents),
      validationsNeeded: ANSWERS_RULE,
      projectId: 'Choose one of your projects, or none.',
      answerKind: 'Choose single choice, rating or multi-select.',
      allowEmpty: 'Only a multi-select task may allow the empty set.',
    },
  });
}
