import { describe, expect, it } from 'vitest';
import { answerFits, deadlineProblem, inOptionOrder, pairAnswerOf, TaskCsvRows, validateGoldenTaskInput, validateTaskInput } from '@concord/contract';

const valid = { type: 'BINARY_CHOICE', content: 'Is this a cat?', options: ['yes', 'no'] };
const codeOf = (raw: unknown) => {
  const result = validateTaskInput(raw, 20);
  return result.ok ? 'OK' : result.error.code;
};
/** The fields a refused task's issues name (null when it is valid). */
const pathOf = (raw: object) => {
  const result = validateTaskInput(raw, 20);
  return result.ok ? null : (result.error.details?.issues as Array<{ path: string }>).map((issue) => issue.path);
};

describe('validateTaskInput', () => {
  it('applies the defaults', () => {
    expect(validateTaskInput(valid, 20)).toEqual({
      ok: true,
      task: { ...valid, locale: 'en', maxCents: 20, projectId: null, validationsNeeded: 3, answerKind: 'single', priority: 0 },
    });
  });

  it('gives a task without a budget the task price when the price is above the default', () => {
    expect(validateTaskInput(valid, 35)).toMatchObject({ ok: true, task: { maxCents: 35 } });
    expect(validateTaskInput({ ...valid, maxCents: 30 }, 35)).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR' } });
  });

  it('checks in the spec order: missing fields, then type, then options, then the rest', () => {
    expect(codeOf({ type: 'NOPE', options: ['a'] })).toBe('MISSING_FIELDS');
    expect(codeOf({ type: 'NOPE', content: 'x', options: ['a'], maxCents: 1 })).toBe('INVALID_TYPE');
    expect(codeOf({ ...valid, options: ['a'], maxCents: 1 })).toBe('OPTIONS_REQUIRED');
    expect(codeOf({ ...valid, maxCents: 1 })).toBe('VALIDATION_ERROR');
  });

  it('names every missing field', () => {
    const result = validateTaskInput({ content: '  ' }, 20);
    expect(result).toMatchObject({ ok: false, error: { code: 'MISSING_FIELDS', details: { fields: ['type', 'content', 'options'] } } });
  });

  it('trims options and refuses blanks and duplicates after trimming', () => {
    expect(validateTaskInput({ ...valid, options: [' yes ', 'no'] }, 20)).toMatchObject({ ok: true, task: { options: ['yes', 'no'] } });
    expect(codeOf({ ...valid, options: ['yes', ' yes'] })).toBe('VALIDATION_ERROR');
    expect(codeOf({ ...valid, options: ['yes', ''] })).toBe('VALIDATION_ERROR');
  });

  it('keeps the budget at or above the configured price', () => {
    expect(codeOf({ ...valid, maxCents: 25 })).toBe('OK');
    expect(validateTaskInput({ ...valid, maxCents: 25 }, 30)).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR' } });
  });

  it('takes an answer kind: single by default, rating with at most 11 levels, nothing else', () => {
    expect(validateTaskInput({ ...valid, answerKind: 'rating', options: ['1', '2', '3'] }, 20)).toMatchObject({ ok: true, task: { answerKind: 'rating' } });
    const levels = Array.from({ length: 12 }, (_, i) => String(i));
    expect(validateTaskInput({ ...valid, answerKind: 'rating', options: levels }, 20)).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR', details: { issues: [{ path: 'options' }] } },
    });
    expect(codeOf({ ...valid, options: levels })).toBe('OK');
    expect(validateTaskInput({ ...valid, answerKind: 'ranking' }, 20)).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR', details: { issues: [{ path: 'answerKind' }] } },
    });
  });

  it('takes multi-select tasks of at most 20 options, and allowEmpty on them only', () => {
    const tags = ['a', 'b', 'c'];
    expect(validateTaskInput({ ...valid, answerKind: 'multi', options: tags, allowEmpty: true }, 20)).toMatchObject({
      ok: true,
      task: { answerKind: 'multi', allowEmpty: true },
    });
    const many = Array.from({ length: 21 }, (_, i) => `t${i}`);
    expect(validateTaskInput({ ...valid, answerKind: 'multi', options: many }, 20)).toMatchObject({
      ok: false,
      error: { details: { issues: [{ path: 'options' }] } },
    });
    expect(validateTaskInput({ ...valid, allowEmpty: false }, 20)).toMatchObject({ ok: false, error: { details: { issues: [{ path: 'allowEmpty' }] } } });
    // A set written as one text joins its options by |: a multi-select task's options cannot hold one.
    expect(validateTaskInput({ ...valid, answerKind: 'multi', options: ['a|b', 'c'] }, 20)).toMatchObject({
      ok: false,
      error: { details: { issues: [{ path: 'options' }] } },
    });
  });

  it('answerFits: one option for single and rating; distinct options for multi, empty only where allowed', () => {
    const single = { options: ['a', 'b'], answerKind: 'single' as const };
    const multi = { options: ['a', 'b', 'c'], answerKind: 'multi' as const, allowEmpty: false };
    expect(answerFits(single, 'a')).toBe(true);
    expect(answerFits(single, ['a'])).toBe(false);
    expect(answerFits(multi, ['c', 'a'])).toBe(true);
    expect(answerFits(multi, 'c|a')).toBe(true);
    expect(answerFits(multi, 'a|a')).toBe(false);
    expect(answerFits(multi, ['a', 'a'])).toBe(false);
    expect(answerFits(multi, ['d'])).toBe(false);
    expect(answerFits(multi, [])).toBe(false);
    expect(answerFits({ ...multi, allowEmpty: true }, [])).toBe(true);
    expect(inOptionOrder(['a', 'b', 'c'], ['c', 'a'])).toEqual(['a', 'c']);
  });

  it('takes pairwise tasks with their candidates: options A, B (and tie with allowTie), and the fields named when the shape is wrong', () => {
    const pair = { type: 'AI_RESPONSE_RATING', answerKind: 'pairwise', content: 'Say hi', candidates: { A: 'Hi', B: 'Hello' } };
    expect(validateTaskInput(pair, 20)).toMatchObject({ ok: true, task: { options: ['A', 'B'], candidates: pair.candidates } });
    expect(validateTaskInput({ ...pair, allowTie: true, group: ' greetings ' }, 20)).toMatchObject({
      ok: true,
      task: { options: ['A', 'B', 'tie'], allowTie: true, group: 'greetings' },
    });
    expect(validateTaskInput({ ...pair, candidates: undefined }, 20)).toMatchObject({
      ok: false,
      error: { code: 'MISSING_FIELDS', details: { fields: ['candidates'] } },
    });
    expect(pathOf({ ...pair, options: ['A', 'B'] })).toEqual(['options']);
    expect(pathOf({ ...pair, candidates: { A: 'same', B: 'same' } })).toEqual(['candidates']);
    expect(pathOf({ ...pair, candidates: { A: 'x', B: '' } })).toEqual(['candidates.B']);
    expect(pathOf({ ...valid, group: 'g' })).toEqual(['group']);
    expect(pathOf({ ...valid, allowTie: false })).toEqual(['allowTie']);
    // A golden pair's answer is A, B, or tie where ties are allowed.
    expect(validateGoldenTaskInput({ ...pair, goldenAnswer: 'B' })).toMatchObject({ ok: true, task: { options: ['A', 'B'] } });
    expect(validateGoldenTaskInput({ ...pair, goldenAnswer: 'tie' })).toMatchObject({ ok: false, error: { details: { issues: [{ path: 'goldenAnswer' }] } } });
    expect(validateGoldenTaskInput({ ...pair, allowTie: true, goldenAnswer: 'tie' }).ok).toBe(true);
  });

  it('takes text tasks without options, at twice the price, with maxLength on them only and at least two writers', () => {
    const text = { type: 'BINARY_CHOICE', answerKind: 'text', content: 'Describe a cat.' };
    expect(validateTaskInput(text, 20)).toMatchObject({ ok: true, task: { options: [], maxCents: 40, validationsNeeded: 3 } });
    expect(validateTaskInput(text, 35)).toMatchObject({ ok: true, task: { maxCents: 70 } });
    expect(validateTaskInput({ ...text, content: undefined }, 20)).toMatchObject({
      ok: false,
      error: { code: 'MISSING_FIELDS', details: { fields: ['content'] } },
    });
    expect(pathOf({ ...text, maxCents: 39 })).toEqual(['maxCents']);
    expect(pathOf({ ...text, options: ['a', 'b'] })).toEqual(['options']);
    // Empty options too are refused as options (its count and the kind's rule both name the field).
    expect(new Set(pathOf({ ...text, options: [] }))).toEqual(new Set(['options']));
    expect(pathOf({ ...text, validationsNeeded: 1 })).toEqual(['validationsNeeded']);
    expect(pathOf({ ...text, allowTie: true })).toEqual(['allowTie']);
    expect(pathOf({ ...valid, maxLength: 100 })).toEqual(['maxLength']);
    expect(validateGoldenTaskInput({ ...text, goldenAnswer: 'A cat.' })).toMatchObject({ ok: false, error: { details: { issues: [{ path: 'answerKind' }] } } });
  });

  it('pairAnswerOf maps first and second to the candidates by the order shown', () => {
    expect(['first', 'second', 'tie'].map((shown) => pairAnswerOf(shown, false))).toEqual(['A', 'B', 'tie']);
    expect(['first', 'second', 'tie'].map((shown) => pairAnswerOf(shown, true))).toEqual(['B', 'A', 'tie']);
    for (const other of ['A', 'B', '', ['first'], null]) expect(pairAnswerOf(other, false)).toBeNull();
  });

  it('reads a CSV row’s candidateA and candidateB as the task’s candidates, and allowTie as a boolean', () => {
    const rows = new TaskCsvRows();
    rows.read(['type', 'content', 'options', 'answerKind', 'candidateA', 'candidateB', 'allowTie', 'group']);
    expect(rows.read(['AI_RESPONSE_RATING', 'Say hi', '', 'pairwise', 'Hi', 'Hello', 'True', 'g'])).toEqual({
      row: 1,
      ok: true,
      task: { type: 'AI_RESPONSE_RATING', content: 'Say hi', answerKind: 'pairwise', candidates: { A: 'Hi', B: 'Hello' }, allowTie: true, group: 'g' },
    });
  });

  it('refuses what is not an object', () => {
    for (const raw of [null, 'task', [valid], 42]) expect(codeOf(raw)).toBe('VALIDATION_ERROR');
  });
});

describe('deadlines and priority', () => {
  const now = new Date('2026-11-28T12:00:00.000Z');

  it('takes a deadline a minute to 366 days ahead, in any zone', () => {
    expect(deadlineProblem('2026-11-28T12:01:00.000Z', now)).toBeNull();
    expect(deadlineProblem('2026-11-28T13:01:00+01:00', now)).toBeNull();
    expect(deadlineProblem('2026-11-28T12:00:59.999Z', now)).toBe('must be at least a minute ahead');
    expect(deadlineProblem('2027-11-29T12:00:00.001Z', now)).toBe('must be at most 366 days ahead');
    expect(deadlineProblem('soon', now)).toBe('must be an ISO 8601 date and time with a zone');
  });

  it('checks both at validation, against the time it is given', () => {
    expect(validateTaskInput({ ...valid, deadline: '2026-11-28T12:30:00Z', priority: -10 }, 20, now)).toMatchObject({
      ok: true,
      task: { deadline: '2026-11-28T12:30:00Z', priority: -10 },
    });
    expect(pathOf({ ...valid, deadline: '2026-11-28T12:30:00' })).toEqual(['deadline']);
    expect(validateTaskInput({ ...valid, deadline: '2026-11-28T12:00:30Z' }, 20, now)).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR', details: { issues: [{ path: 'deadline', message: 'must be at least a minute ahead' }] } },
    });
    for (const priority of [11, -11, 0.5]) expect(pathOf({ ...valid, priority })).toEqual(['priority']);
  });

  it('reads both from CSV columns', () => {
    const rows = new TaskCsvRows();
    rows.read(['type', 'content', 'options', 'deadline', 'priority']);
    expect(rows.read(['BINARY_CHOICE', 'Spam?', 'yes|no', '2026-11-28T12:30:00Z', '-4'])).toMatchObject({
      ok: true,
      task: { deadline: '2026-11-28T12:30:00Z', priority: -4 },
    });
  });
});
