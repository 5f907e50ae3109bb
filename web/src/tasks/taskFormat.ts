// How a task's figures read in tables and the drawer.
import { SET_SEPARATOR } from '@concord/contract';
import { pairResultWords } from './pairwise';

/**
 * The start of a text on one line, for tables: at most `length` characters, cut after a whole word (a
 * word cut in two reads as another word), unless the only space is far back (a long URL, a token).
 */
export function excerpt(text: string, length = 90): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= length) return line;
  const head = line.slice(0, length - 1);
  const space = head.lastIndexOf(' ');
  const cut = space >= length * 0.6 ? head.slice(0, space) : head;
  return `${cut.replace(/[\s,;:.—–-]+$/, '')}…`;
}

export const formatConfidence = (confidence: number | null | undefined): string =>
  confidence === null || confidence === undefined ? '—' : `${(confidence * 100).toFixed(1)} %`;

/** "850 ms", "4.2 s", "5 min", "5 min 12 s", "2 h", "2 h 5 min": no zero part ("5 min 0 s"). */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1_000;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
  const total = Math.round(seconds);
  const minutes = Math.floor(total / 60);
  const rest = total % 60;
  if (minutes < 60) return rest ? `${minutes} min ${rest} s` : `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
}

/**
 * A rating's posterior in words: "Mean 4.09 of 5 levels; 90 % sure it is 4" — the mean as a position on the
 * scale (1 = the lowest level), the 90 % interval by its levels.
 */
export function ratingSentence(rating: { mean: number; interval: number[] }, levels: readonly string[]): string {
  const [low = 0, high = low] = rating.interval;
  const span = low === high ? `${levels[low] ?? low}` : `between ${levels[low] ?? low} and ${levels[high] ?? high}`;
  return `Mean ${(rating.mean + 1).toFixed(2)} of ${levels.length} levels; 90 % sure it is ${span}`;
}

/** A multi-select answer or result as the API writes it (its options joined by |) as a list. */
export const setChoices = (value: string): string[] => (value === '' ? [] : value.split(SET_SEPARATOR));

/**
 * A result or an answer as the pages show it: a multi-select set (`multi`) as its options joined by
 * commas, the empty set as "(none)"; nothing yet as "—".
 */
export function formatAnswer(value: string | null | undefined, multi = false): string {
  if (value === null || value === undefined) return '—';
  if (!multi) return value;
  const choices = setChoices(value);
  return choices.length === 0 ? '(none)' : choices.join(', ');
}

/** The most of a written result a table cell or an event line shows (the drawer shows all of it). */
const WRITTEN_RESULT_LENGTH = 80;

/**
 * A result or a known answer as the pages show it for its kind: a pairwise one as the better candidate
 * ("B is better", "Tie"), a multi-select set as a list (formatAnswer), a written one (text) as the start
 * of the text in quotes, anything else as it is.
 */
export function formatResult(value: string | null | undefined, answerKind: string | undefined): string {
  if (answerKind === 'pairwise') return pairResultWords(value);
  if (answerKind === 'text') return value === null || value === undefined ? '—' : `“${excerpt(value, WRITTEN_RESULT_LENGTH)}”`;
  return formatAnswer(value, answerKind === 'multi');
}
