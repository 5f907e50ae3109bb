// The API key form's logic: the body sent from what was chosen, the last day as the end of that day UTC,
// the checks before sending, and how a listed key's scope and expiry read.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors';
import { mapFieldErrors } from '../api/fieldErrors';
import { endOfDayUtc, expiryProblem, isExpired, keyBody, projectsProblem, scopeWords, todayUtc } from './keyForm';

const NOW = Date.parse('2026-11-28T10:00:00.000Z');

describe('endOfDayUtc', () => {
  it('is the last millisecond of the day in UTC', () => {
    expect(endOfDayUtc('2027-03-31')).toBe('2027-03-31T23:59:59.999Z');
    expect(endOfDayUtc('2028-02-29')).toBe('2028-02-29T23:59:59.999Z');
  });

  it('refuses what is not a real day', () => {
    for (const day of ['', '2027-02-30', '2027-13-01', '31/03/2027', '2027-3-1']) expect(endOfDayUtc(day), day).toBeUndefined();
  });
});

describe('expiryProblem', () => {
  it('accepts no day, today and later days', () => {
    expect(expiryProblem('', NOW)).toBeUndefined();
    expect(expiryProblem(todayUtc(NOW), NOW)).toBeUndefined();
    expect(expiryProblem('2026-11-29', NOW)).toBeUndefined();
  });

  it('refuses a past day, the last minute of today, and a non-date', () => {
    expect(expiryProblem('2026-11-27', NOW)).toMatch(/has passed/);
    expect(expiryProblem('2026-11-28', Date.parse('2026-11-28T23:59:30.000Z'))).toMatch(/has passed/);
    expect(expiryProblem('2026-02-30', NOW)).toMatch(/as a date/);
  });
});

describe('keyBody', () => {
  it('sends a whole-organisation, never-expiring key with its access only', () => {
    expect(keyBody({ name: '  Production ingest ', access: 'write', projectIds: [], expiryDay: '' })).toEqual({ name: 'Production ingest', access: 'write' });
  });

  it('adds the ticked projects (once each) and the end of the last day', () => {
    expect(keyBody({ name: 'Dashboards', access: 'read', projectIds: ['p1', 'p2', 'p1'], expiryDay: '2027-03-31' })).toEqual({
      name: 'Dashboards',
      access: 'read',
      projectIds: ['p1', 'p2'],
      expiresAt: '2027-03-31T23:59:59.999Z',
    });
  });
});

describe('projectsProblem', () => {
  it('allows up to 50 projects', () => {
    expect(projectsProblem([])).toBeUndefined();
    expect(projectsProblem(Array.from({ length: 50 }, (_, i) => `p${i}`))).toBeUndefined();
    expect(projectsProblem(Array.from({ length: 51 }, (_, i) => `p${i}`))).toMatch(/at most 50 projects \(51 are ticked\)/);
  });
});

describe('isExpired', () => {
  it('marks a key whose expiry has passed, never one without', () => {
    expect(isExpired({ expiresAt: null }, NOW)).toBe(false);
    expect(isExpired({ expiresAt: '2026-11-28T09:59:59.999Z' }, NOW)).toBe(true);
    expect(isExpired({ expiresAt: '2026-11-28T10:00:00.000Z' }, NOW)).toBe(true);
    expect(isExpired({ expiresAt: '2026-11-28T23:59:59.999Z' }, NOW)).toBe(false);
  });
});

describe('scopeWords', () => {
  const names = new Map([
    ['p1', 'Product reviews'],
    ['p2', 'Search relevance'],
  ]);
  it('names the projects, or the whole organisation', () => {
    expect(scopeWords(null, names)).toBe('Whole organisation');
    expect(scopeWords(['p2', 'p1'], names)).toBe('Search relevance, Product reviews');
    expect(scopeWords(['p1', 'gone'], names)).toBe('Product reviews, a deleted project');
  });

  it('counts them while the names are loading', () => {
    expect(scopeWords(['p1'], undefined)).toBe('1 project');
    expect(scopeWords(['p1', 'p2'], undefined)).toBe('2 projects');
    expect(scopeWords(null, undefined)).toBe('Whole organisation');
  });
});

describe('the form’s errors from the API', () => {
  it('places INVALID_PROJECT at the projects and an expiry refusal at the last day', () => {
    const options = { fields: ['name', 'projectIds', 'expiresAt'] as const, codeFields: { INVALID_PROJECT: 'projectIds' as const } };
    const invalid = mapFieldErrors(new ApiError(400, { error: 'Unknown project', code: 'INVALID_PROJECT' }), options);
    expect(invalid.fields.projectIds).toBeTruthy();
    expect(invalid.general).toBeNull();
    const expiry = mapFieldErrors(
      new ApiError(400, {
        error: 'Invalid request',
        code: 'VALIDATION_ERROR',
        details: { issues: [{ path: 'expiresAt', message: 'must be at least a minute ahead' }] },
      }),
      options,
    );
    expect(expiry.fields.expiresAt).toBeTruthy();
    expect(expiry.general).toBeNull();
  });
});
