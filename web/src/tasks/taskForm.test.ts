// The task forms' budget and answers rules, with the floor GET /meta's price sets.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors';
import {
  candidateFieldOf,
  floorCentsFor,
  localTaskErrors,
  minAnswersFor,
  projectDefaultKind,
  readBudgetAndAnswers,
  readMaxLength,
  readPairFields,
  taskFormErrors,
  taskInputOf,
  type TaskFormValues,
} from './taskForm';

describe('floorCentsFor', () => {
  it('is the task price, and never under the contract’s 20 cents', () => {
    expect(floorCentsFor(35)).toBe(35);
    expect(floorCentsFor(5)).toBe(20);
    expect(floorCentsFor(undefined)).toBe(20);
  });

  it('is twice the price for a text task (its writing and its review), 20 cents at least', () => {
    expect(floorCentsFor(20, 'text')).toBe(40);
    expect(floorCentsFor(35, 'text')).toBe(70);
    expect(floorCentsFor(undefined, 'text')).toBe(40);
    expect(floorCentsFor(5, 'text')).toBe(20);
    expect(floorCentsFor(20, 'pairwise')).toBe(20);
  });
});

describe('minAnswersFor', () => {
  it('asks a text task for two written answers at least, for its review to choose between', () => {
    expect(minAnswersFor('text')).toBe(2);
    expect(minAnswersFor('single')).toBe(1);
  });
});

describe('readBudgetAndAnswers', () => {
  it('reads dollars as cents and a whole number of answers', () => {
    expect(readBudgetAndAnswers(' $1.50 ', '5', { floorCents: 20, required: true })).toEqual({ maxCents: 150, validationsNeeded: 5, errors: {} });
  });

  it('leaves empty fields to the API’s defaults when they are optional, and refuses them when required', () => {
    expect(readBudgetAndAnswers('', '', { floorCents: 20, required: false })).toEqual({ maxCents: undefined, validationsNeeded: undefined, errors: {} });
    const required = readBudgetAndAnswers('', '', { floorCents: 20, required: true });
    expect(Object.keys(required.errors).sort()).toEqual(['maxCents', 'validationsNeeded']);
  });

  it('refuses a budget under the price', () => {
    expect(readBudgetAndAnswers('0.30', '3', { floorCents: 35, required: true }).errors.maxCents).toMatch(/from \$0\.35/);
    expect(readBudgetAndAnswers('0.35', '3', { floorCents: 35, required: true }).errors).toEqual({});
  });

  it('refuses a budget over $1 000 and answer counts outside 1–25', () => {
    expect(readBudgetAndAnswers('1000.01', '3', { floorCents: 20, required: true }).errors.maxCents).toMatch(/to \$1,000\.00/);
    for (const answers of ['0', '26', '2.5', '-1']) {
      expect(readBudgetAndAnswers('1.00', answers, { floorCents: 20, required: true }).errors.validationsNeeded).toMatch(/from 1 to 25/);
    }
    expect(readBudgetAndAnswers('1000.00', '25', { floorCents: 20, required: true }).errors).toEqual({});
  });
});

describe('readBudgetAndAnswers for a text task', () => {
  it('refuses one written answer and a budget under twice the price, saying why', () => {
    const refused = readBudgetAndAnswers('0.20', '1', { floorCents: 40, required: false, answerKind: 'text' }).errors;
    expect(refused.maxCents).toBe('Give a budget from $0.40 (the price of the writing and its review) to $1,000.00.');
    expect(refused.validationsNeeded).toMatch(/^Give a whole number of written answers from 2 to 25/);
    expect(readBudgetAndAnswers('0.40', '2', { floorCents: 40, required: false, answerKind: 'text' })).toEqual({
      maxCents: 40,
      validationsNeeded: 2,
      errors: {},
    });
  });
});

describe('readMaxLength', () => {
  it('leaves an empty field to the API’s default and reads a whole number of characters from 1 to 10 000', () => {
    expect(readMaxLength(' ')).toEqual({ value: undefined });
    expect(readMaxLength(' 280 ')).toEqual({ value: 280 });
    expect(readMaxLength('10000')).toEqual({ value: 10_000 });
    for (const typed of ['0', '10001', '2.5', '-3', 'many']) {
      expect(readMaxLength(typed).error).toBe('Give a whole number of characters from 1 to 10 000, or leave it empty for 2 000.');
    }
  });
});

describe('localTaskErrors', () => {
  const text = { type: 'AI_RESPONSE_RATING', content: 'Write a one-sentence reply.', answerKind: 'text', locale: 'en' };

  it('accepts a text task without options, and gives it the doubled budget the service would', () => {
    expect(localTaskErrors(text, 20, 'text')).toBeNull();
  });

  it('says what the service would refuse next to its field, in the text task’s words', () => {
    expect(localTaskErrors({ ...text, options: ['a', 'b'] }, 20, 'text')?.options).toMatch(/takes no options/);
    expect(localTaskErrors({ ...text, validationsNeeded: 1 }, 20, 'text')?.validationsNeeded).toMatch(/at least 2 written answers/);
    expect(localTaskErrors({ ...text, maxCents: 30 }, 20, 'text')?.maxCents).toMatch(/40 cents/);
    expect(localTaskErrors({ ...text, content: '' }, 20, 'text')).toEqual({ content: 'Write the instruction annotators answer in writing.' });
  });
});

describe('taskFormErrors', () => {
  it('words the API’s refusal of maxLength with the field’s rule', () => {
    const refusal = new ApiError(400, {
      error: 'Invalid',
      code: 'VALIDATION_ERROR',
      details: { issues: [{ path: ['maxLength'], message: 'Too big: expected number to be <=10000' }] },
    });
    expect(taskFormErrors(refusal, 40, 'text').fields.maxLength).toMatch(/^Give a whole number of characters from 1 to 10 000/);
  });
});

describe('readPairFields', () => {
  it('sends the candidates as typed, the tie, and the group trimmed (left out when empty)', () => {
    expect(readPairFields({ candidateA: 'Short answer.', candidateB: 'A longer answer.\n', allowTie: true, group: '  mutex  ' })).toEqual({
      value: { candidates: { A: 'Short answer.', B: 'A longer answer.\n' }, allowTie: true, group: 'mutex' },
      errors: {},
    });
    expect(readPairFields({ candidateA: 'x', candidateB: 'y', allowTie: false, group: ' ' }).value).toEqual({
      candidates: { A: 'x', B: 'y' },
      allowTie: false,
    });
  });

  it('refuses an empty candidate, two that are the same text, and texts over the API’s limits', () => {
    expect(readPairFields({ candidateA: ' ', candidateB: '', allowTie: false }).errors).toEqual({
      candidateA: 'Write candidate A.',
      candidateB: 'Write candidate B.',
    });
    expect(readPairFields({ candidateA: 'Same', candidateB: 'Same ', allowTie: false }).errors).toEqual({
      candidateB: 'The two candidates are the same text: they must differ.',
    });
    const long = readPairFields({ candidateA: 'a'.repeat(50_001), candidateB: 'b', allowTie: false, group: 'g'.repeat(201) }).errors;
    expect(long.candidateA).toMatch(/^Candidate A has 50,001 characters; the most is 50,000/);
    expect(long.group).toMatch(/^The group has 201 characters; the most is 200/);
  });
});

describe('candidateFieldOf', () => {
  const refusal = (path: string[]) => new ApiError(400, { error: 'Invalid', code: 'VALIDATION_ERROR', details: { issues: [{ path, message: 'x' }] } });

  it('puts a message about candidate A next to A, and one about B or the pair next to B', () => {
    expect(candidateFieldOf(refusal(['candidates', 'A']))).toBe('candidateA');
    expect(candidateFieldOf(refusal(['candidates', 'B']))).toBe('candidateB');
    expect(candidateFieldOf(refusal(['candidates']))).toBe('candidateB');
  });
});

describe('Create task and a project’s default kind', () => {
  const projects = [
    { id: 'p-ratings', name: 'Assistant ratings', defaultAnswerKind: 'rating' as const },
    { id: 'p-frames', name: 'Warehouse frames', defaultAnswerKind: 'multi' as const },
    { id: 'p-plain', name: 'Product reviews', defaultAnswerKind: null },
  ];
  const typed: TaskFormValues = {
    type: 'AI_RESPONSE_RATING',
    content: 'Q: What is 2 + 2? A: 4',
    options: 'good\n bad \n',
    locale: '',
    projectId: 'p-ratings',
    allowEmpty: true,
  };

  it('preselects the chosen project’s default kind, and single choice without one', () => {
    expect(projectDefaultKind(projects, 'p-ratings')).toBe('rating');
    expect(projectDefaultKind(projects, 'p-frames')).toBe('multi');
    expect(projectDefaultKind(projects, 'p-plain')).toBe('single');
    expect(projectDefaultKind(projects, '')).toBe('single');
    expect(projectDefaultKind(projects, 'p-unknown')).toBe('single');
  });

  it('names single choice in the request, so a project whose default is rating does not make the task a rating task', () => {
    const input = taskInputOf('single', typed);
    expect(input).toEqual({
      type: 'AI_RESPONSE_RATING',
      content: typed.content,
      options: ['good', 'bad'],
      locale: 'en',
      projectId: 'p-ratings',
      answerKind: 'single',
    });
    expect(localTaskErrors(input, 20, 'single')).toBeNull();
  });

  it('names every other kind too, with only that kind’s own fields', () => {
    expect(taskInputOf('rating', typed).answerKind).toBe('rating');
    expect(taskInputOf('rating', typed)).not.toHaveProperty('allowEmpty');
    expect(taskInputOf('multi', { ...typed, projectId: '' })).toEqual({
      type: 'AI_RESPONSE_RATING',
      content: typed.content,
      options: ['good', 'bad'],
      locale: 'en',
      answerKind: 'multi',
      allowEmpty: true,
    });
    const pair = { candidates: { A: 'yes', B: 'no' }, allowTie: true };
    expect(taskInputOf('pairwise', { ...typed, pair })).toMatchObject({ answerKind: 'pairwise', ...pair });
    expect(taskInputOf('pairwise', { ...typed, pair })).not.toHaveProperty('options');
    expect(taskInputOf('text', { ...typed, maxLength: 280 })).toMatchObject({ answerKind: 'text', maxLength: 280 });
    expect(taskInputOf('text', typed)).not.toHaveProperty('options');
  });
});

describe('Create task’s deadline and priority', () => {
  const typed: TaskFormValues = { type: 'BINARY_CHOICE', content: 'Is this spam?', options: 'yes\nno', locale: 'en', projectId: '', allowEmpty: false };

  it('sends a deadline and a priority when given, and neither when left to the defaults', () => {
    const deadline = new Date(Date.now() + 3_600_000).toISOString();
    expect(taskInputOf('single', { ...typed, deadline, priority: -3 })).toMatchObject({ deadline, priority: -3 });
    const plain = taskInputOf('single', { ...typed, deadline: null, priority: undefined });
    expect(plain).not.toHaveProperty('deadline');
    expect(plain).not.toHaveProperty('priority');
    expect(taskInputOf('single', { ...typed, priority: 0 })).toHaveProperty('priority', 0);
  });

  it('says what the contract refuses next to the deadline and the priority', () => {
    const input = taskInputOf('single', { ...typed, deadline: new Date(Date.now() + 10_000).toISOString(), priority: 11 });
    expect(localTaskErrors(input, 20, 'single')).toEqual({
      priority: 'Give a whole number from −10 to +10: higher is served sooner among your own tasks (0 by default).',
    });
    const soon = taskInputOf('single', { ...typed, deadline: new Date(Date.now() + 10_000).toISOString() });
    expect(localTaskErrors(soon, 20, 'single')).toEqual({ deadline: 'The deadline must be at least a minute ahead.' });
  });

  it('words the service’s refusal of a deadline next to its field', () => {
    const refusal = new ApiError(400, {
      error: 'Invalid',
      code: 'VALIDATION_ERROR',
      details: { issues: [{ path: ['deadline'], message: 'must be at most 366 days ahead' }] },
    });
    expect(taskFormErrors(refusal, 20).fields.deadline).toBe('The deadline must be at most 366 days ahead.');
  });
});
