// The task forms' budget and answers rules, with the floor GET /meta's price sets.
import { describe, expect, it } from 'vitest';
import { floorCentsFor, readBudgetAndAnswers } from './taskForm';

describe('floorCentsFor', () => {
  it('is the task price, and never under the contract’s 20 cents', () => {
    expect(floorCentsFor(35)).toBe(35);
    expect(floorCentsFor(5)).toBe(20);
    expect(floorCentsFor(undefined)).toBe(20);
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
