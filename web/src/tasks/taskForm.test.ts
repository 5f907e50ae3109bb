// The task forms' budget and answers rules, with the floor GET /meta's price sets.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maxCentsSchema, validationsNeededSchema } from '../../../src/modules/tasks/task-rules.ts';
import { budgetFloorCents, readBudgetAndAnswers } from './taskForm';

describe('budgetFloorCents', () => {
  it('is the task price, and never under the contract’s 20 cents', () => {
    expect(budgetFloorCents(35)).toBe(35);
    expect(budgetFloorCents(5)).toBe(20);
    expect(budgetFloorCents(undefined)).toBe(20);
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

  it('accepts exactly the budgets and answer counts the service’s schema accepts (20 cents price)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 120_000 }), fc.integer({ min: -2, max: 30 }), (cents, answers) => {
        const read = readBudgetAndAnswers((cents / 100).toFixed(2), String(answers), { floorCents: 20, required: true });
        expect(read.errors.maxCents === undefined).toBe(maxCentsSchema.safeParse(cents).success);
        expect(read.errors.validationsNeeded === undefined).toBe(validationsNeededSchema.safeParse(answers).success);
      }),
      { numRuns: 2000 },
    );
  });
});
