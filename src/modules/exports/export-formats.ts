// Training-data formats: pure functions from an exported task to its text. Each format writes a file as
// begin + records + end, so a split writes three complete files.
import { stringify } from 'csv-stringify/sync';
import {
  allowsTie,
  SET_SEPARATOR,
  storedChoices,
  type AnswerKind,
  type ExportFormat,
  type PairCandidates,
  type RatingResult,
  type TaskType,
} from '@concord/contract';
import type { RankedCandidate } from '../../consensus/kinds/pairwise.ts';

/**
 * A text cell a spreadsheet would run as a formula, prefixed with ' so that it is shown instead (OWASP
 * CSV injection, contract §8): one that begins with a tab or a carriage return, or whose first visible
 * character is =, +, -, @ (or their full-width forms) after any run of spaces, no-break spaces,
 * zero-width characters or a byte-order mark, which spreadsheets skip before reading a formula.
 */
export function guardFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}
const FORMULA_START = /^(?:[\t\r]|[\s\u200B-\u200D\u2060\uFEFF]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/u;

export interface ExportRecord {
  id: string;
  type: TaskType;
  content: string;
  options: string[];
  label: string | null;
  confidence: number | null;
  locale: string;
  /** ISO 8601 in UTC with milliseconds, as the database formats it. */
  validatedAt: string | null;
  answerKind: AnswerKind;
  /** A rating's posterior mean and 90 % interval in level indexes (tasks.result_details); null for other kinds. */
  rating: RatingResult | null;
  /** A multi-select task's confidence per option (tasks.result_details); null for other kinds. */
  optionConfidence: Record<string, number> | null;
  /** A pairwise task's two candidates (content is its prompt); null for other kinds. */
  candidates: PairCandidates | null;
  /** A pairwise task's group, if any. */
  group: string | null;
  /** The group's ranking of its candidates (Bradley–Terry over its decided pairs); null without a group, or in a format that does not write it. */
  groupRanking: RankedCandidate[] | null;
}

export interface FileFormat {
  contentType: string;
  begin: string;
  /** The text of one record; `index` is its position in the file (0 first). */
  record(record: ExportRecord, index: number): string;
  end: string;
  /** Whether its records carry their group's ranking (the service fits the rankings first). */
  ranksGroups?: boolean;
}

/** The chat formats' answer for an empty set (a multi-select task that allows it). */
const NONE_APPLIES = 'none';

const INSTRUCTIONS: Record<TaskType, string> = {
  SENTIMENT_ANALYSIS: 'Classify the sentiment of the following text.',
  IMAGE_CLASSIFICATION: 'Classify the image at the following URL.',
  BINARY_CHOICE: 'Answer the following question.',
  AI_RESPONSE_RATING: 'Rate the following AI response.',
  RELEVANCE_RATING: 'Rate the relevance of the following content.',
};

/** The chat formats' instruction for a pair: the prompt and both candidates follow it, labelled A and B. */
const pairInstruction = (r: Pick<ExportRecord, 'options'>) =>
  `Which of the two responses to the prompt is better? Answer with one of: ${r.options.join(', ')}${allowsTie(r.options) ? ' (tie: equally good)' : ''}.`;

/** A pair's prompt and candidates as one text, labelled as its answers name them. */
const pairText = (r: Pick<ExportRecord, 'content' | 'candidates'>) =>
  `Prompt:\n${r.content}\n\nResponse A:\n${r.candidates?.A ?? ''}\n\nResponse B:\n${r.candidates?.B ?? ''}`;

/**
 * The instruction for a task's type followed by its options: "… Answer with one of: a, b, c."; for a rating
 * task, its levels as a scale: "… Answer with one level of the scale, from lowest to highest: 1, 2, 3."
 */
export function instructionFor(record: Pick<ExportRecord, 'type' | 'options' | 'answerKind' | 'content'>): string {
  if (record.answerKind === 'pairwise') return pairInstruction(record);
  // A text task's content is its instruction, and its written answer the response.
  if (record.answerKind === 'text') return record.content;
  const answer = ANSWER_WORDS[record.answerKind];
  return `${INSTRUCTIONS[record.type]} ${answer} ${record.options.join(', ')}.`;
}
/** The answer the instruction asks for, by kind (a pair's and a text task's instruction is their own). */
const ANSWER_WORDS: Record<Exclude<AnswerKind, 'pairwise' | 'text'>, string> = {
  single: 'Answer with one of:',
  rating: 'Answer with one level of the scale, from lowest to highest:',
  multi: `Answer with every one that applies, separated by commas, or "${NONE_APPLIES}" if none does:`,
};

/** What json and jsonl add for a kind other than single choice (a single-choice record is as it always was). */
function kindFields(r: ExportRecord) {
  if (r.answerKind === 'rating') return { answerKind: r.answerKind, rating: r.rating };
  if (r.answerKind === 'multi') return { answerKind: r.answerKind, choices: choicesOf(r), optionConfidence: r.optionConfidence };
  if (r.answerKind === 'pairwise') return { answerKind: r.answerKind, candidates: r.candidates, group: r.group, groupRanking: r.groupRanking };
  if (r.answerKind === 'text') return { answerKind: r.answerKind };
  return {};
}

/** A multi-select task's set as a list (its label is stored as the JSON array of its options); null otherwise. */
const choicesOf = (r: ExportRecord): string[] | null => (r.answerKind === 'multi' && r.label !== null ? storedChoices(r.label) : null);

/** The label as text: a set's options joined by `separator` (| by default, as the API writes a set), the empty set as `empty`. */
function labelText(r: ExportRecord, separator: string = SET_SEPARATOR, empty = ''): string | null {
  const choices = choicesOf(r);
  if (!choices) return r.label;
  return choices.length === 0 ? empty : choices.join(separator);
}

/** The content as one text: a pair's prompt with both candidates, anything else's content as it is. */
const contentText = (r: Pick<ExportRecord, 'content' | 'candidates' | 'answerKind'>) => (r.answerKind === 'pairwise' ? pairText(r) : r.content);

/** The chat prompt: the instruction with the options, then the content (a pair's prompt and candidates); a text task's instruction alone. */
export function promptFor(record: Pick<ExportRecord, 'type' | 'options' | 'content' | 'answerKind' | 'candidates'>): string {
  return record.answerKind === 'text' ? record.content : `${instructionFor(record)}\n\n${contentText(record)}`;
}

/** A decided pair as a preference line: the better candidate chosen, the other rejected; a tie (included on request) keeps A, B and says so. */
function preferenceLine(r: ExportRecord): string {
  const { A = '', B = '' } = r.candidates ?? {};
  const chosenB = r.label === 'B';
  return line({
    prompt: r.content,
    chosen: chosenB ? B : A,
    rejected: chosenB ? A : B,
    confidence: r.confidence,
    ...(r.label === 'tie' ? { tie: true } : {}),
    id: r.id,
  });
}

const line = (value: unknown) => `${JSON.stringify(value)}\n`;
const ndjson = 'application/x-ndjson';
export const CSV_COLUMNS = ['id', 'type', 'content', 'label', 'confidence', 'locale', 'validatedAt'] as const;

export const FORMATS: Record<ExportFormat, FileFormat> = {
  json: {
    contentType: 'application/json',
    begin: '[',
    record: (r, index) =>
      `${index === 0 ? '' : ','}${JSON.stringify({
        id: r.id,
        type: r.type,
        content: r.content,
        label: labelText(r),
        confidence: r.confidence,
        locale: r.locale,
        validatedAt: r.validatedAt,
        ...kindFields(r),
      })}`,
    end: ']\n',
    ranksGroups: true,
  },
  jsonl: {
    contentType: ndjson,
    begin: '',
    record: (r) => line({ id: r.id, type: r.type, content: r.content, label: labelText(r), ...kindFields(r) }),
    end: '',
    ranksGroups: true,
  },
  csv: {
    contentType: 'text/csv; charset=utf-8',
    begin: stringify([[...CSV_COLUMNS]]),
    // contract §8 (OWASP CSV injection): text cells pass through guardFormula; numbers are never prefixed.
    // A set's options are joined by | (as the API writes a set, and an import's options); the empty set is an empty cell.
    // A pair's content cell holds its prompt and both candidates, labelled A and B as its label names them.
    record: (r) =>
      stringify([[r.id, r.type, guardFormula(contentText(r)), guardFormula(labelText(r) ?? ''), r.confidence ?? '', r.locale, r.validatedAt ?? '']]),
    end: '',
  },
  openai: {
    contentType: ndjson,
    begin: '',
    record: (r) =>
      line({
        messages: [
          { role: 'user', content: promptFor(r) },
          { role: 'assistant', content: labelText(r, ', ', NONE_APPLIES) ?? '' },
        ],
      }),
    end: '',
  },
  huggingface: {
    contentType: ndjson,
    begin: '',
    // Multi-label as the datasets library writes it: the labels and their ids as lists.
    record: (r) => {
      const choices = choicesOf(r);
      if (choices) return line({ text: r.content, label: choices, label_id: choices.map((option) => r.options.indexOf(option)) });
      // A written answer: the instruction and the response, no label ids (there are no options).
      if (r.answerKind === 'text') return line({ text: r.content, response: r.label ?? '' });
      if (r.answerKind === 'pairwise') {
        return line({
          text: r.content,
          candidate_a: r.candidates?.A ?? '',
          candidate_b: r.candidates?.B ?? '',
          label: r.label ?? '',
          label_id: r.label === null ? -1 : r.options.indexOf(r.label),
        });
      }
      return line({ text: r.content, label: r.label ?? '', label_id: r.label === null ? -1 : r.options.indexOf(r.label) });
    },
    end: '',
  },
  alpaca: {
    contentType: ndjson,
    begin: '',
    record: (r) =>
      line({ instruction: instructionFor(r), input: r.answerKind === 'text' ? '' : contentText(r), output: labelText(r, ', ', NONE_APPLIES) ?? '' }),
    end: '',
  },
  // Reward models and DPO: one line per decided pair (the export selects pairwise tasks only, ties on request).
  preference: {
    contentType: ndjson,
    begin: '',
    record: preferenceLine,
    end: '',
  },
};
