import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCsvRecords, readDataset } from '../../bench/quality/dataset.ts';
import { indexDataset, type IndexedDataset } from '../../bench/quality/indexed.ts';
import { majorityAtBudget } from '../../bench/quality/majority-budget.ts';

describe('bench/quality reads datasets whatever their line endings', () => {
  const rows = ['question,worker,answer', '1,w1,2', '1,w2,1', '2,w1,2'];

  it.each([
    ['LF', rows.join('\n') + '\n'],
    ['CRLF', rows.join('\r\n') + '\r\n'],
    ['a CRLF header over LF rows', `${rows[0]}\r\n${rows.slice(1).join('\n')}\n`],
    ['an LF header over CRLF rows', `${rows[0]}\n${rows.slice(1).join('\r\n')}\r\n`],
    ['mixed, no final newline', `${rows[0]}\r\n${rows[1]}\n${rows[2]}\r\n${rows[3]}`],
  ])('%s: no label keeps a \\r', (_, text) => {
    const records = parseCsvRecords(text);
    expect(records).toEqual([
      { question: '1', worker: 'w1', answer: '2' },
      { question: '1', worker: 'w2', answer: '1' },
      { question: '2', worker: 'w1', answer: '2' },
    ]);
  });

  const dir = mkdtempSync(path.join(os.tmpdir(), 'concord-quality-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads answers.csv and truth.csv of a folder into the same labels', () => {
    writeFileSync(path.join(dir, 'answers.csv'), 'question,worker,answer\r\n1,w1,2\n1,w2,1\r\n2,w1,2\n');
    writeFileSync(path.join(dir, 'truth.csv'), 'question,truth\n1,2\r\n2,1\r\n');
    const dataset = readDataset(dir);
    expect(dataset.truth).toEqual(
      new Map([
        ['1', '2'],
        ['2', '1'],
      ]),
    );
    const indexed = indexDataset(dataset);
    // Two classes, not four: '2' and '2\r' would have been two labels.
    expect(indexed.classes).toEqual(['1', '2']);
    expect(Array.from(indexed.truth)).toEqual([1, 0]);
  });
});

describe('majority vote at the same budget', () => {
  // Three tasks, truth 0, each with answers in this order.
  const data: IndexedDataset = {
    name: 'toy',
    classes: ['a', 'b'],
    itemAnswers: [],
    truth: Int32Array.from([0, 0, 0]),
    workerCount: 3,
    answerCount: 9,
  };
  const orders = [
    [0, 1, 0],
    [1, 0, 0],
    [0, 0, 1],
  ].map((labels) => labels.map((label, worker) => ({ worker, label })));
  // k = 1: 2 of 3 right (budget 3); k = 2: two ties split evenly, 2 right (budget 6); k = 3: 3 of 3 (budget 9).

  it('is majority vote at a fixed overlap when the budget is one', () => {
    expect(majorityAtBudget(data, orders, 3)).toBeCloseTo(2 / 3, 12);
    expect(majorityAtBudget(data, orders, 9)).toBeCloseTo(1, 12);
  });

  it('mixes the two neighbouring overlaps on the upper hull (k = 2 lies below it here)', () => {
    // Between k = 1 (2 right, 3 answers) and k = 3 (3 right, 9 answers): at 6 answers half the tasks take
    // one answer and half three, 2.5 right — more than k = 2's 2; at 4.5 answers, 2.25 right.
    expect(majorityAtBudget(data, orders, 6)).toBeCloseTo(2.5 / 3, 12);
    expect(majorityAtBudget(data, orders, 4.5)).toBeCloseTo(2.25 / 3, 12);
  });
});
