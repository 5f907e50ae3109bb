// The project forms' quality settings, checked as the service checks them.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors';
import {
  DEFAULT_DEADLINE_RULE,
  DEFAULT_KIND_RULE,
  defaultDeadlineWords,
  hoursWords,
  readDefaultDeadlineHours,
  MAX_RESPONSES_RULE,
  TARGET_CONFIDENCE_RULE,
  defaultKindValue,
  projectFormErrors,
  readDefaultKind,
  readProjectFields,
  readQualitySettings,
} from './projectForm';

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

describe('readQualitySettings', () => {
  it('reads empty fields as the service defaults (null)', () => {
    expect(readQualitySettings(' ', '')).toEqual({ values: { targetConfidence: null, maxResponses: null }, errors: {} });
  });

  it('reads the bounds and values between them', () => {
    expect(readQualitySettings('0.5', '2').values).toEqual({ targetConfidence: 0.5, maxResponses: 2 });
    expect(readQualitySettings(' 0.999 ', ' 50 ').values).toEqual({ targetConfidence: 0.999, maxResponses: 50 });
    expect(readQualitySettings('.9', '12').values).toEqual({ targetConfidence: 0.9, maxResponses: 12 });
  });

  it.each([
    ['0.49', '10'],
    ['1', '10'],
    ['95%', '10'],
    ['0,9', '10'],
    ['0.9', '1'],
    ['0.9', '51'],
    ['0.9', '10.5'],
    ['0.9', 'ten'],
  ])('refuses %s / %s with the rule of the field', (target, answers) => {
    const { errors } = readQualitySettings(target, answers);
    expect(Object.values(errors)).toHaveLength(1);
    expect([TARGET_CONFIDENCE_RULE, MAX_RESPONSES_RULE]).toContain(Object.values(errors)[0]);
  });
});

describe('readProjectFields', () => {
  it('sends the settings with the name and description', () => {
    expect(readProjectFields(form({ name: ' Cats ', description: '', targetConfidence: '0.97', maxResponses: '' }))).toEqual({
      values: { name: 'Cats', description: null, targetConfidence: 0.97, maxResponses: null },
      errors: {},
    });
  });
});

describe('the default answer kind', () => {
  it('sends single choice as null, the API’s “no default”, and rating or multi-select by name', () => {
    expect(readDefaultKind('')).toBeNull();
    expect(readDefaultKind('single')).toBeNull();
    expect(readDefaultKind('rating')).toBe('rating');
    expect(readDefaultKind('multi')).toBe('multi');
  });

  it('never sends a kind that cannot be a default', () => {
    expect(readDefaultKind('pairwise')).toBeNull();
    expect(readDefaultKind('text')).toBeNull();
  });

  it('shows a project without a default, or with single choice, as single choice in the select', () => {
    expect(defaultKindValue(null)).toBe('');
    expect(defaultKindValue('single')).toBe('');
    expect(defaultKindValue('multi')).toBe('multi');
  });

  it('is sent with the other fields when the form has it, and left alone when it has not', () => {
    expect(readProjectFields(form({ name: 'Frames', defaultAnswerKind: 'multi' })).values.defaultAnswerKind).toBe('multi');
    expect(readProjectFields(form({ name: 'Frames', defaultAnswerKind: '' })).values).toHaveProperty('defaultAnswerKind', null);
    expect(readProjectFields(form({ name: 'Frames' })).values).not.toHaveProperty('defaultAnswerKind');
  });
});

describe('projectFormErrors', () => {
  it('says which kinds can be a default when the service refuses one', () => {
    const refused = new ApiError(400, {
      error: 'Invalid request',
      code: 'VALIDATION_ERROR',
      details: { issues: [{ path: 'defaultAnswerKind', message: 'Invalid option: expected one of "single"|"rating"|"multi"' }] },
    });
    expect(projectFormErrors(refused).fields).toEqual({ defaultAnswerKind: DEFAULT_KIND_RULE });
  });

  it('puts the service’s refusal of a setting next to its field, in the form’s words', () => {
    const refused = new ApiError(400, {
      error: 'Invalid request',
      code: 'VALIDATION_ERROR',
      details: { issues: [{ path: 'maxResponses', message: 'Too big: expected number to be <=50' }] },
    });
    expect(projectFormErrors(refused)).toEqual({ fields: { maxResponses: MAX_RESPONSES_RULE }, general: null });
  });
});

describe('the default deadline', () => {
  it('reads empty as none (null) and whole hours from 1 to 8 760 as they are', () => {
    expect(readDefaultDeadlineHours(' ')).toEqual({ value: null });
    expect(readDefaultDeadlineHours('1')).toEqual({ value: 1 });
    expect(readDefaultDeadlineHours(' 48 ')).toEqual({ value: 48 });
    expect(readDefaultDeadlineHours('8760')).toEqual({ value: 8760 });
  });

  it.each(['0', '8761', '1.5', '-3', '2 days', '24h'])('refuses %s with the rule of the field', (typed) => {
    expect(readDefaultDeadlineHours(typed)).toEqual({ value: null, error: DEFAULT_DEADLINE_RULE });
  });

  it('is sent with the other fields when the form has it (empty: null, none), and left alone when it has not', () => {
    expect(readProjectFields(form({ name: 'Moderation', defaultDeadlineHours: '24' })).values.defaultDeadlineHours).toBe(24);
    expect(readProjectFields(form({ name: 'Moderation', defaultDeadlineHours: '' })).values).toHaveProperty('defaultDeadlineHours', null);
    expect(readProjectFields(form({ name: 'Moderation' })).values).not.toHaveProperty('defaultDeadlineHours');
    expect(readProjectFields(form({ name: 'Moderation', defaultDeadlineHours: '9000' })).errors).toEqual({ defaultDeadlineHours: DEFAULT_DEADLINE_RULE });
  });

  it('says what it means for the project’s new tasks', () => {
    expect(hoursWords(1)).toBe('1 hour');
    expect(hoursWords(36)).toBe('36 hours');
    expect(hoursWords(48)).toBe('48 hours (2 days)');
    expect(hoursWords(8760)).toBe('8 760 hours (365 days)');
    expect(defaultDeadlineWords(24)).toBe('24 hours (1 day) after a task is created, for tasks that name no deadline');
    expect(defaultDeadlineWords(null)).toBe('None: a task has a deadline only when it names one');
  });

  it('puts the service’s refusal next to its field', () => {
    const refused = new ApiError(400, {
      error: 'Invalid request',
      code: 'VALIDATION_ERROR',
      details: { issues: [{ path: 'defaultDeadlineHours', message: 'Too big: expected number to be <=8760' }] },
    });
    expect(projectFormErrors(refused)).toEqual({ fields: { defaultDeadlineHours: DEFAULT_DEADLINE_RULE }, general: null });
  });
});
