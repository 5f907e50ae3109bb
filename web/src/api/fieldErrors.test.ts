// How a form's refusal is split: a message next to each field the API names, one sentence for the rest.
import { describe, expect, it } from 'vitest';
import { ApiError, describeCode, describeError, parseRetryAfter, waitWords } from './errors';
import { mapFieldErrors, taskErrorSentence } from './fieldErrors';
import { issueSentence, plainSentence } from './issueWords';

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
      fields: { appUrl: 'Must be an absolute http(s) URL.', email: 'Must be an e-mail address.' },
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
    expect(describeError(mapped.general)).toBe('Some values are not valid. The e-mail: taken. Unexpected is not a field the service knows.');
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

  it('says which spending cap refused, with its figures', () => {
    const details = { scope: 'project', projectId: 'p1', capCents: 5_000, committedCents: 4_990, requiredCents: 20 };
    expect(describeError(new ApiError(402, { error: 'x', code: 'BUDGET_CAP_REACHED', details }))).toBe(
      "This project's budget cap of $50.00 refuses this: $49.90 is committed and this needs $0.20 more. Raise the cap on the Billing page.",
    );
    const monthly = { ...details, scope: 'organisation', projectId: null };
    expect(describeError(new ApiError(402, { error: 'x', code: 'BUDGET_CAP_REACHED', details: monthly }))).toMatch(/^The monthly spending cap of \$50\.00/);
  });
});

describe("plain words for zod's messages", () => {
  it('says the messages people met in plain sentences, next to a field or naming it', () => {
    expect(plainSentence('Too small: expected string to have >=1 characters')).toBe('Must not be empty.');
    expect(plainSentence('Too big: expected string to have <=2048 characters')).toBe('Must have at most 2,048 characters.');
    expect(plainSentence('Too small: expected number to be >=20')).toBe('Must be at least 20.');
    expect(plainSentence('Invalid input: expected int, received number')).toBe('Must be a whole number.');
    expect(plainSentence('Invalid input: expected string, received undefined')).toBe('Is required.');
    // The service's own words are kept.
    expect(plainSentence('must be at least the task price of 35 cents')).toBe('Must be at least the task price of 35 cents.');
  });

  it('names the six locales in words', () => {
    expect(issueSentence('locale', 'Invalid option: expected one of "fr"|"en"|"de"|"zh"|"es"|"ar"')).toBe(
      'The locale must be one of the six locales: English (en), French (fr), German (de), Spanish (es), Chinese (zh), Arabic (ar).',
    );
  });

  it('numbers an item of a list from 1 and does not name a field twice', () => {
    expect(issueSentence('options.1', 'options must not be blank')).toBe('Options must not be blank.');
    expect(issueSentence('options.2', 'Too big: expected string to have <=500 characters')).toBe('Option 3 must have at most 500 characters.');
  });

  it("words a webhook URL that is too long without zod's prefix", () => {
    const error = validation([{ path: ['appUrl'], message: 'Too big: expected string to have <=2048 characters' }]);
    expect(mapFieldErrors(error, { fields: ['appUrl'] }).fields.appUrl).toBe('Must have at most 2,048 characters.');
  });
});

describe('taskErrorSentence', () => {
  it("words a CSV row's or a batch item's refusal, every issue of it", () => {
    expect(
      taskErrorSentence(
        'Invalid task: locale: Invalid option: expected one of "fr"|"en"|"de"|"zh"|"es"|"ar"; maxCents: Too small: expected number to be >=20',
        'VALIDATION_ERROR',
      ),
    ).toBe(
      'The locale must be one of the six locales: English (en), French (fr), German (de), Spanish (es), Chinese (zh), Arabic (ar). The budget (maxCents) must be at least 20.',
    );
    expect(taskErrorSentence('Unknown task type "NOT_A_TYPE"; expected one of SENTIMENT_ANALYSIS, BINARY_CHOICE', 'INVALID_TYPE')).toBe(
      'The type "NOT_A_TYPE" is not a task type: use one of SENTIMENT_ANALYSIS, BINARY_CHOICE.',
    );
    expect(taskErrorSentence('Missing required fields: content', 'MISSING_FIELDS')).toBe('The content field is empty: type, content and options are required.');
    expect(taskErrorSentence('Missing required fields: candidates', 'MISSING_FIELDS')).toBe(
      'The candidates field is empty: a pairwise task needs type, content and both candidates.',
    );
    expect(taskErrorSentence('Invalid task: candidates.B: a candidate must not be empty', 'VALIDATION_ERROR')).toBe(
      'Candidate B: a candidate must not be empty.',
    );
    expect(taskErrorSentence('Expected 3 fields, found 4', 'VALIDATION_ERROR')).toBe(
      'This row has 4 cells where the header has 3: check its commas and quotes.',
    );
    expect(taskErrorSentence('Task 3 is invalid: Invalid task: foo: Unknown field', 'VALIDATION_ERROR')).toBe('Foo is not a field the service knows.');
  });
});

describe("a 429's wait", () => {
  it('reads Retry-After in seconds or as a date, and says it in words', () => {
    expect(parseRetryAfter('125')).toBe(125);
    expect(parseRetryAfter('Wed, 25 Nov 2026 10:00:30 GMT', Date.parse('2026-11-25T10:00:00Z'))).toBe(30);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(waitWords(40)).toBe('40 seconds');
    expect(waitWords(125)).toBe('2 minutes 5 seconds');
    expect(waitWords(900)).toBe('15 minutes');
    const limited = new ApiError(429, { error: 'Too many requests', code: 'RATE_LIMITED' }, 125);
    expect(describeError(limited)).toBe('Too many attempts from this address. Try again in 2 minutes 5 seconds.');
  });
});
