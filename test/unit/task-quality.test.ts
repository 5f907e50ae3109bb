import { describe, expect, it } from 'vitest';
import { maxResponsesSchema, targetConfidenceSchema } from '@concord/contract';
import { taskQualityFor } from '../../src/modules/tasks/task-quality.ts';

const unset = { targetConfidence: null, maxResponses: null };

describe('taskQualityFor', () => {
  it('gives a task without project the default target and max(10, 2 × validationsNeeded) answers', () => {
    expect(taskQualityFor(3, null, 0.95)).toEqual({ targetConfidence: 0.95, maxResponses: 10 });
    expect(taskQualityFor(5, null, 0.9)).toEqual({ targetConfidence: 0.9, maxResponses: 10 });
    expect(taskQualityFor(6, null, 0.95)).toEqual({ targetConfidence: 0.95, maxResponses: 12 });
    expect(taskQualityFor(25, null, 0.95)).toEqual({ targetConfidence: 0.95, maxResponses: 50 });
  });

  it('gives a task of a project without settings the defaults too', () => {
    expect(taskQualityFor(3, unset, 0.95)).toEqual({ targetConfidence: 0.95, maxResponses: 10 });
  });

  it("copies the project's settings, each on its own", () => {
    expect(taskQualityFor(3, { targetConfidence: 0.8, maxResponses: 7 }, 0.95)).toEqual({ targetConfidence: 0.8, maxResponses: 7 });
    expect(taskQualityFor(3, { targetConfidence: 0.8, maxResponses: null }, 0.95)).toEqual({ targetConfidence: 0.8, maxResponses: 10 });
    expect(taskQualityFor(8, { targetConfidence: null, maxResponses: 4 }, 0.95)).toEqual({ targetConfidence: 0.95, maxResponses: 8 });
  });

  it("never gives fewer answers than validationsNeeded, whatever the project's maxResponses", () => {
    expect(taskQualityFor(25, { targetConfidence: null, maxResponses: 10 }, 0.95).maxResponses).toBe(25);
    expect(taskQualityFor(2, { targetConfidence: null, maxResponses: 2 }, 0.95).maxResponses).toBe(2);
  });
});

describe('the settings’ bounds (contract §3)', () => {
  it.each([
    [0.5, true],
    [0.999, true],
    [0.95, true],
    [0.4999, false],
    [0.9991, false],
    [1, false],
  ])('targetConfidence %s accepted: %s', (value, ok) => {
    expect(targetConfidenceSchema.safeParse(value).success).toBe(ok);
  });

  it.each([
    [2, true],
    [50, true],
    [1, false],
    [51, false],
    [10.5, false],
  ])('maxResponses %s accepted: %s', (value, ok) => {
    expect(maxResponsesSchema.safeParse(value).success).toBe(ok);
  });
});
