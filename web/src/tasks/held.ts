// Tasks held by their project's budget cap (README, "Spending caps"; capAction hold): created PENDING but
// neither reserved nor served until the cap is set again, and not changeable meanwhile (409 TASK_HELD).
// What the list, the drawer and the creation answers say of them. Pure, so every sentence is tested.
import { formatCount } from '../ui/format';

/** The mark of a held task, in the list and the drawer. */
export const HELD_LABEL = 'Held by the budget cap';

/** What holding means, said once in the drawer. */
export const HELD_EXPLANATION =
  'Its project’s budget cap holds it: nothing is reserved for it and annotators do not see it. Raising or removing the cap releases held tasks, oldest first, as far as the caps and the available balance allow.';

/** Why the drawer offers no changes for a held task (PATCH answers 409 TASK_HELD). */
export const HELD_UNCHANGEABLE =
  'A held task cannot be changed (TASK_HELD): its budget, answers, locale and project stay as they are while it waits. Once the cap releases it, it can be changed like any task nobody has answered; or delete it and create it again.';

/**
 * The sentence a creation answer adds when some of its tasks are held (their `held: true`), or null when
 * none is: one task, a batch or a CSV import.
 */
export function heldCreatedWords(held: number, created: number): string | null {
  if (held <= 0) return null;
  const wait = 'nothing is reserved and annotators do not see them until the cap is raised';
  if (created === 1) return 'It is held by its project’s budget cap: nothing is reserved and annotators do not see it until the cap is raised.';
  if (held >= created) return `All ${formatCount(created)} are held by their project’s budget cap: ${wait}.`;
  return `${formatCount(held)} of them ${held === 1 ? 'is' : 'are'} held by ${held === 1 ? 'its' : 'their'} project’s budget cap: ${
    held === 1 ? 'nothing is reserved and annotators do not see it until the cap is raised' : wait
  }.`;
}

/** How many tasks of a creation answer are held. */
export const heldCount = (tasks: readonly { held?: true }[]): number => tasks.filter((task) => task.held === true).length;
