// The dashboard's task vocabulary: its order and what it recognises (the values are the contract's, by type).
import { describe, expect, it } from 'vitest';
import { ANSWER_KINDS, failureReasonLabel, failureReasonWords, GOLDEN_ANSWER_KINDS, isLocale, isStatus, isTaskType, STATUSES, typeLabel } from './vocabulary';

describe('task vocabulary', () => {
  it('lists the statuses in the order a task goes through them', () => {
    expect(STATUSES.map((s) => s.value)).toEqual(['PENDING', 'VALIDATING', 'COMPLETED', 'FAILED']);
  });

  it('recognises only its own values, even inherited property names', () => {
    expect(isTaskType('BINARY_CHOICE')).toBe(true);
    expect(isLocale('ar')).toBe(true);
    expect(isStatus('FAILED')).toBe(true);
    for (const value of ['toString', 'constructor', '', null, 'EN']) {
      expect(isTaskType(value)).toBe(false);
      expect(isLocale(value)).toBe(false);
      expect(isStatus(value)).toBe(false);
    }
    expect(typeLabel('UNKNOWN')).toBe('UNKNOWN');
  });

  it('words each answer kind as a choice, keeping the candidates’ names A and B as they are', () => {
    const label = (value: string) => ANSWER_KINDS.find((kind) => kind.value === value)?.label;
    expect(label('single')).toBe('Single choice: one of the options');
    expect(label('rating')).toBe('Rating: a level of a scale: the options, lowest first');
    expect(label('pairwise')).toBe('Pairwise: which of two candidates is better (A, B or a tie)');
    expect(label('text')).toBe('Written answer: a text each annotator writes; other annotators then choose the best one');
  });

  it('offers golden tasks every kind but the written answer, which has no one right answer', () => {
    expect(GOLDEN_ANSWER_KINDS.map((kind) => kind.value)).toEqual(['single', 'rating', 'multi', 'pairwise']);
  });

  it('words both failure reasons, and keeps an unknown one as the API sent it', () => {
    expect(failureReasonWords('EXPIRED')).toBe('Expired: its deadline passed before it was decided');
    expect(failureReasonWords('NO_CONSENSUS')).toMatch(/^No consensus: the annotators did not agree/);
    expect(failureReasonLabel('EXPIRED')).toBe('Expired');
    expect(failureReasonLabel('NO_CONSENSUS')).toBe('No consensus');
    expect(failureReasonWords(null)).toBe('—');
    expect(failureReasonWords('toString')).toBe('toString');
    expect(failureReasonLabel('SOMETHING_NEW')).toBe('SOMETHING_NEW');
  });

  it('says a failed task may have expired', () => {
    expect(STATUSES.find((s) => s.value === 'FAILED')?.hint).toBe('No consensus or expired, not charged');
  });
});
