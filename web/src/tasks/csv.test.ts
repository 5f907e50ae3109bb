// The import page's reading of a CSV file: the service's dialect and parser (@concord/contract, csv-parse)
// with what the page adds, the line each record starts on and its words for a file the service refuses.
import { ANSWER_KINDS, checkCsvHeader, TaskCsvRows, taskCsvOptions, validateTaskInput } from '@concord/contract';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvField, emptyOptionsWords, exampleCsv, parseCsv, previewRows, recordFields } from './csv';

describe('parseCsv', () => {
  it('numbers data records from 1 and gives the line each starts on, counting line ends inside quoted fields', () => {
    for (const eol of ['\n', '\r\n', '\r']) {
      const text = ['\uFEFFtype,content,options', `A,"two${eol}lines",x|y`, '', ' , ', `B,"a${eol}${eol}b",x|y`, 'C,c,x|y'].join(eol);
      const result = parseCsv(text);
      expect(result.header).toEqual(['type', 'content', 'options']);
      expect(result.records.map((record) => [record.row, record.line])).toEqual([
        [1, 2],
        [2, 6],
        [3, 9],
      ]);
      expect(result.records[1]?.cells).toEqual(['B', `a${eol}${eol}b`, 'x|y']);
    }
  });

  it.each([
    ['type,content,options\r\nA,"a\r\nb",x\r\nB,"never closed,x\r\n', 'A quoted field opened on line 4 is never closed.', 4],
    ['type,content,options\nA,a "b",x\n', 'Line 2: a quote inside a field that does not start with one.', 2],
    ['type,content,options\nA,"a"b,x\n', 'Line 2: after a closing quote comes another character', 2],
  ])('says why the service would refuse %j, and on which line', (text, message, line) => {
    const { error, records } = parseCsv(text);
    expect(error?.message).toContain(message);
    expect(error?.line).toBe(line);
    expect(records).toEqual([]);
  });
});

describe('exampleCsv', () => {
  it('is a file whose every row the service accepts, quoted where it must be', () => {
    const text = exampleCsv(35);
    const reader = new TaskCsvRows();
    const rows = parseCsv(text).records.length;
    let accepted = 0;
    // The records as the service reads them (the header first), each through the task rules.
    for (const cells of [parseCsv(text).header ?? [], ...parseCsv(text).records.map((record) => record.cells)]) {
      const row = reader.read(cells);
      if (row?.ok && validateTaskInput(row.task, 35).ok) accepted += 1;
    }
    expect(rows).toBe(10);
    expect(accepted).toBe(rows);
    expect(csvField('a, "b"')).toBe('"a, ""b"""');
    expect(csvField(' padded')).toBe('" padded"');
  });

  it('passes the contract’s own checks at the price of 20 cents, with a row of every answer kind', () => {
    // Read as the service reads an upload (csv-parse with the contract's options), each row through the task rules.
    const records = parse(exampleCsv(), taskCsvOptions(true)) as string[][];
    const reader = new TaskCsvRows();
    const header = records[0] ?? [];
    expect(checkCsvHeader(header)).toEqual({ missing: [], unknown: [], duplicate: [] });
    const checked = records.map((fields) => reader.read(fields)).filter((row) => row !== undefined);
    reader.end();
    expect(checked).toHaveLength(10);
    const tasks = checked.map((row) => {
      if (!row.ok) throw new Error(`row ${row.row}: ${row.error}`);
      const validation = validateTaskInput(row.task, 20);
      if (!validation.ok) throw new Error(`row ${row.row}: ${validation.error.message}`);
      return validation.task;
    });
    expect(new Set(tasks.map((task) => task.answerKind))).toEqual(new Set(ANSWER_KINDS));
    const ofKind = (kind: string) => tasks.find((task) => task.answerKind === kind);
    expect(ofKind('rating')?.options).toEqual(['1', '2', '3', '4', '5']);
    expect(ofKind('multi')?.allowEmpty).toBe(true);
    expect(ofKind('pairwise')).toMatchObject({ options: ['A', 'B', 'tie'], allowTie: true, group: 'commit-messages' });
    expect(ofKind('pairwise')?.candidates).toEqual({ A: 'Fix crash on empty config file', B: 'fixed stuff' });
    expect(ofKind('text')).toMatchObject({ options: [], maxLength: 280, maxCents: 40 });
    // The header names the columns the rows use (projectId aside, which every file may name), no more.
    const used = new Set(checked.flatMap((row) => (row.ok ? Object.keys(row.task) : [])));
    const unused = header.filter((column) => column !== 'projectId' && !used.has(column.startsWith('candidate') ? 'candidates' : column));
    expect(unused).toEqual([]);
  });

  it('gives one row a deadline 30 days ahead, on the hour, in UTC, and two rows a priority', () => {
    const records = parse(exampleCsv(20, new Date('2026-03-14T09:26:53.589Z')), taskCsvOptions(true)) as string[][];
    const [header = [], ...rows] = records;
    const column = (name: string) => rows.map((row) => row[header.indexOf(name)] ?? '').filter((cell) => cell !== '');
    expect(column('deadline')).toEqual(['2026-04-13T10:00:00.000Z']);
    expect(column('priority')).toEqual(['5', '-2']);
  });
});

describe('previewRows', () => {
  it('lists the first rows in file order, numbered as the service numbers them', () => {
    const lines = ['type,content,options', ...Array.from({ length: 12 }, (_, i) => `A,"row ${i + 1}${i === 2 ? '\nsecond line' : ''}",x|y`), '', 'B,last,x|y'];
    const parsed = parseCsv(lines.join('\n'));
    const rows = previewRows(parsed, 5);
    expect(rows.map((record) => [record.row, record.line, record.cells[1]])).toEqual([
      [1, 2, 'row 1'],
      [2, 3, 'row 2'],
      [3, 4, 'row 3\nsecond line'],
      [4, 6, 'row 4'],
      [5, 7, 'row 5'],
    ]);
    expect(previewRows(parsed, 100).map((record) => record.row)).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
  });
});

describe('emptyOptionsWords', () => {
  const text = ['type,content,options,answerKind,maxLength,candidateA,candidateB,allowTie', 'AI_RESPONSE_RATING,Write a reply,,text,280,,,'].join('\n');

  it('reads a text row, with its maxLength column, as a written answer the service accepts at twice the price', () => {
    const parsed = parseCsv(text);
    const header = parsed.header ?? [];
    expect(checkCsvHeader(header)).toEqual({ missing: [], unknown: [], duplicate: [] });
    const record = parsed.records[0];
    if (!record) throw new Error('no row');
    expect(emptyOptionsWords(recordFields(header, record))).toBe('written answer (text)');
    const reader = new TaskCsvRows();
    reader.read(header);
    const row = reader.read(record.cells);
    if (!row?.ok) throw new Error('the row was refused');
    const checked = validateTaskInput(row.task, 20);
    expect(checked.ok && [checked.task.answerKind, checked.task.maxLength, checked.task.maxCents]).toEqual(['text', 280, 40]);
  });

  it('names a pairwise row’s answers, and leaves an options cell that is given, or empty on another kind, to itself', () => {
    expect(emptyOptionsWords({ options: '', answerKind: 'pairwise', allowTie: 'TRUE' })).toBe('A · B · tie (pairwise)');
    expect(emptyOptionsWords({ options: '', answerKind: ' pairwise ' })).toBe('A · B (pairwise)');
    expect(emptyOptionsWords({ options: 'yes|no', answerKind: 'text' })).toBeNull();
    expect(emptyOptionsWords({ options: '', answerKind: '' })).toBeNull();
  });
});
