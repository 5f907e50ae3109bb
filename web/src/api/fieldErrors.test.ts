// How a form's refusal is split: a message next to each field the API names, one sentence for the rest.
import { describe, expect, it } from 'vitest';
import { ApiError, describeCode, describeError } from './errors';
import { mapFieldErrors } from './fieldErrors';

const validation = (issues: { path: (string | number)[]; message: string }[]) =>
  new ApiError(400, { error: 'Invalid request', code: 'VALIDATION_ERROR', details: { issues } });

const FIELDS = ['email', 'appName', 'appUrl'] as const;

describe('mapFieldErrors', () => {
  it('puts each VALIDATION_ERROR issue next to its field, as a sentence', () => {
    const error = validation([
      { path: ['appUrl'], message: 'must be an absolute http(s) URL' },
      { path: ['email'], message: 'Invalid email address' },
    ]);
    expect(mapFieldErrors(error, { fields: FIELDS })).toEqual({
      fields: { appUrl: 'Must be an absolute http(s) URL.', email: 'Invalid email address.' },
      general: null,
    });
  });

  it("uses the form's own rule where the API's message is zod's generic wording, and the service's message otherwise", () => {
    const rules = { maxCents: 'Give a budget from $0.20 to $1,000.00.' };
    const generic = validation([{ path: ['maxCents'], message: 'Too small: expected number to be >=20' }]);
    const specific = validation([{ path: ['maxCents'], message: 'must be at least the task price of 35 cents' }]);
    expect(mapFieldErrors(generic, { fields: ['maxCents'], rules }).fields.maxCents).toBe(rules.maxCents);
    expect(mapFieldErrors(specific, { fields: ['maxCents'], rules }).fields.maxCents).toBe('Must be at least the task price of 35 cents.');
  });

  it('keeps the first message of a field whose nested paths fail ("options.2")', () => {
    const error = validation([
      { path: ['options', 2], message: 'too long' },
      { path: ['options', 3], message: 'empty' },
    ]);
    expect(mapFieldErrors(error, { fields: ['options'] }).fields).toEqual({ options: 'Too long.' });
  });

  it('leaves the error for the whole form when an issue names no field of it', () => {
    const error = validation([
      { path: ['email'], message: 'taken' },
      { path: ['unexpected'], message: 'Unrecognized key' },
    ]);
    const mapped = mapFieldErrors(error, { fields: FIELDS });
    expect(mapped.fields).toEqual({ email: 'Taken.' });
    expect(mapped.general).toBe(error);
    expect(describeError(mapped.general)).toBe('Some values are not valid. email: taken; unexpected: Unrecognized key.');
  });

  it('puts a code that names a field next to it, in the one sentence table’s words', () => {
    const taken = new ApiError(409, { error: 'An account with this e-mail already exists', code: 'EMAIL_TAKEN' });
    expect(mapFieldErrors(taken, { fields: FIELDS })).toEqual({ fields: { email: describeCode('EMAIL_TAKEN') }, general: null });
    const project = new ApiError(400, { error: 'x', code: 'INVALID_PROJECT' });
    expect(mapFieldErrors(project, { fields: ['projectId'] }).fields.projectId).toBe(describeCode('INVALID_PROJECT'));
    // A form without that field shows it as a whole.
    expect(mapFieldErrors(project, { fields: FIELDS })).toEqual({ fields: {}, general: project });
  });

  it("lets a form route its own codes to a field, with the error's figures", () => {
    const credits = new ApiError(402, { error: 'Insufficient credits', code: 'INSUFFICIENT_CREDITS', details: { requiredCents: 250, availableCents: 100 } });
    const mapped = mapFieldErrors(credits, { fields: ['maxCents'], codeFields: { INSUFFICIENT_CREDITS: 'maxCents' } });
    expect(mapped).toEqual({ fields: { maxCents: 'This needs $2.50 but only $1.00 is available.' }, general: null });
  });

  it('names each missing field, with the form’s words where it has them', () => {
    const error = new ApiError(400, { error: 'Missing', code: 'MISSING_FIELDS', details: { fields: ['type', 'options'] } });
    const mapped = mapFieldErrors(error, { fields: ['type', 'content', 'options'], missing: { type: 'Choose a task type.' } });
    expect(mapped).toEqual({ fields: { type: 'Choose a task type.', options: 'This field is required.' }, general: null });
  });

  it('passes on anything that is not an API error', () => {
    const failure = new Error('boom');
    expect(mapFieldErrors(failure, { fields: FIELDS })).toEqual({ fields: {}, general: failure });
    expect(mapFieldErrors(null, { fields: FIELDS })).toEqual({ fields: {}, general: null });
  });
});

describe('describeError', () => {
  it("words a code from the one table, else keeps the API's message", () => {
    expect(describeError(new ApiError(404, { error: 'x', code: 'TASK_NOT_FOUND' }))).toBe(describeCode('TASK_NOT_FOUND'));
    expect(describeError(new ApiError(418, { error: 'I am a teapot', code: 'TEAPOT' }))).toBe('I am a teapot');
    expect(describeCode('TEAPOT')).toBe('TEAPOT');
  });
});
