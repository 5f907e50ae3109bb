import { describe, expect, it } from 'vitest';
import { decide, posterior, voteWeight } from '../../src/consensus/consensus.ts';
import { earningPerAgreeingAnswer, level, reliability, shouldSuspend } from '../../src/consensus/reputation.ts';

const NEW = 0.7;
const votes = (...answers: string[]) => answers.map((answer) => ({ answer, reliability: NEW }));
const run = (options: string[], answers: string[]) => decide({ options, answers: votes(...answers), maxResponses: 6, threshold: 0.75 });

describe('consensus: the contract worked examples with new annotators (r = 0.7)', () => {
  it('two options, 3 of 3 agree → 0.9270 COMPLETED', () => {
    expect(run(['A', 'B'], ['A', 'A', 'A'])).toEqual({ kind: 'complete', result: 'A', confidence: 0.927 });
  });

  it('two options, 2–1 → 0.7000, keeps collecting', () => {
    expect(run(['A', 'B'], ['A', 'B', 'A'])).toEqual({ kind: 'continue', confidence: 0.7 });
  });

  it('answers alternating A,B,A,B,A,B → FAILED at the 6th', () => {
    const sequence = ['A', 'B', 'A', 'B', 'A', 'B'];
    const decisions = sequence.map((_, i) => run(['A', 'B'], sequence.slice(0, i + 1)).kind);
    expect(decisions).toEqual(['continue', 'continue', 'continue', 'continue', 'continue', 'fail']);
  });

  it('three options, 2–1–0 → 0.7935 COMPLETED', () => {
    expect(run(['A', 'B', 'C'], ['A', 'B', 'A'])).toEqual({ kind: 'complete', result: 'A', confidence: 0.7935 });
  });
});

describe('consensus rules', () => {
  it('gives no weight to an annotator at or below chance, and more to a reliable one', () => {
    expect(voteWeight(0.5, 2)).toBe(0);
    expect(voteWeight(0.2, 2)).toBe(0);
    expect(voteWeight(0.95, 2)).toBeGreaterThan(voteWeight(0.7, 2));
    // One expert outweighs two new annotators.
    const answers = [{ answer: 'A', reliability: 0.99 }, ...votes('B', 'B')];
    expect(decide({ options: ['A', 'B'], answers, maxResponses: 6, threshold: 0.75 })).toMatchObject({
      kind: 'complete',
      result: 'A',
    });
  });

  it('posteriors sum to 1 and ignore answers that are not options', () => {
    const p = posterior(['A', 'B', 'C'], [...votes('A', 'B'), { answer: 'Z', reliability: 0.9 }]);
    expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(p[0]).toBeCloseTo(p[1] as number, 12);
  });

  it('stays finite with many confident answers', () => {
    const answers = Array.from({ length: 25 }, () => ({ answer: 'A', reliability: 0.99 }));
    expect(decide({ options: ['A', 'B'], answers, maxResponses: 50, threshold: 0.75 })).toEqual({
      kind: 'complete',
      result: 'A',
      confidence: 1,
    });
  });
});

describe('reliability, levels, suspension, earnings', () => {
  const zero = { goldenAnswered: 0, goldenCorrect: 0, resolvedResponses: 0, agreedResponses: 0 };

  it('starts at 0.7 and moves with golden answers (fully) and agreement (half)', () => {
    expect(reliability(zero)).toBe(0.7);
    expect(reliability({ ...zero, goldenAnswered: 10, goldenCorrect: 10 })).toBe(0.85);
    expect(reliability({ ...zero, resolvedResponses: 20, agreedResponses: 20 })).toBe(0.85);
    expect(reliability({ ...zero, goldenAnswered: 10, goldenCorrect: 0 })).toBe(0.35);
    expect(reliability({ ...zero, goldenAnswered: 1000, goldenCorrect: 1000 })).toBe(0.99);
  });

  it('levels need both resolved answers and reliability', () => {
    expect(level(zero)).toBe('NOVICE');
    expect(level({ ...zero, resolvedResponses: 20, agreedResponses: 20 })).toBe('BRONZE');
    expect(level({ ...zero, resolvedResponses: 19, agreedResponses: 19 })).toBe('NOVICE');
    expect(level({ ...zero, resolvedResponses: 100, agreedResponses: 100 })).toBe('SILVER');
    expect(level({ ...zero, resolvedResponses: 500, agreedResponses: 500 })).toBe('GOLD');
    expect(level({ ...zero, resolvedResponses: 500, agreedResponses: 250 })).toBe('NOVICE');
  });

  it('suspends after 10 golden answers below 50 % accuracy', () => {
    expect(shouldSuspend(9, 0)).toBe(false);
    expect(shouldSuspend(10, 4)).toBe(true);
    expect(shouldSuspend(10, 5)).toBe(false);
  });

  it('splits half the cost among agreeing answers, rounded down', () => {
    expect(earningPerAgreeingAnswer(20, 0.5, 3)).toBe(3);
    expect(earningPerAgreeingAnswer(20, 0.5, 2)).toBe(5);
    expect(earningPerAgreeingAnswer(20, 0.5, 0)).toBe(0);
    expect(earningPerAgreeingAnswer(25, 0.5, 1)).toBe(12);
  });
});
