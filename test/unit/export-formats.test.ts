import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { splitSizes } from '@concord/contract';
import { FORMATS, promptFor, type ExportRecord } from '../../src/modules/exports/export-formats.ts';

const record: ExportRecord = {
  id: 'c1',
  type: 'SENTIMENT_ANALYSIS',
  content: 'Great, "really" great\nproduct',
  options: ['positive', 'negative', 'neutral'],
  label: 'positive',
  confidence: 0.927,
  locale: 'en',
  validatedAt: '2026-01-02T03:04:05.678Z',
  answerKind: 'single',
  rating: null,
  optionConfidence: null,
  candidates: null,
  group: null,
  groupRanking: null,
};

const file = (format: keyof typeof FORMATS, records: ExportRecord[]) =>
  FORMATS[format].begin + records.map((r, i) => FORMATS[format].record(r, i)).join('') + FORMATS[format].end;

describe('export formats', () => {
  it('json: one array of {id, type, content, label, confidence, locale, validatedAt}', () => {
    expect(JSON.parse(file('json', [record, { ...record, id: 'c2' }]))).toEqual([
      {
        id: 'c1',
        type: 'SENTIMENT_ANALYSIS',
        content: record.content,
        label: 'positive',
        confidence: 0.927,
        locale: 'en',
        validatedAt: '2026-01-02T03:04:05.678Z',
      },
      expect.objectContaining({ id: 'c2' }),
    ]);
    expect(JSON.parse(file('json', []))).toEqual([]);
  });

  it('jsonl: one {id, type, content, label} per line', () => {
    expect(file('jsonl', [record]).split('\n')).toEqual([
      JSON.stringify({ id: 'c1', type: 'SENTIMENT_ANALYSIS', content: record.content, label: 'positive' }),
      '',
    ]);
  });

  it('csv: header then RFC 4180 rows (quotes doubled, commas and newlines quoted)', () => {
    expect(file('csv', [record])).toBe(
      'id,type,content,label,confidence,locale,validatedAt\n' +
        'c1,SENTIMENT_ANALYSIS,"Great, ""really"" great\nproduct",positive,0.927,en,2026-01-02T03:04:05.678Z\n',
    );
    expect(file('csv', [])).toBe('id,type,content,label,confidence,locale,validatedAt\n');
  });

  it.each([
    ['=', '=HYPERLINK("http://evil.example","click")'],
    ['+', "+1+cmd|' /C calc'!A0"],
    ['-', '-2+3'],
    ['@', '@SUM(A1:A2)'],
    ['tab', '\t=1+1'],
    ['carriage return', '\r=1+1'],
    ['spaces then =', '   =1+1'],
    ['a no-break space then +', '\u00A0+1+1'],
    ['a zero-width space then @', '\u200B@SUM(A1:A2)'],
    ['a byte-order mark then -', '\uFEFF-2+3'],
    ['a full-width =', '\uFF1D1+1'],
  ])('csv: a content or label beginning with %s is prefixed with a quote, so no spreadsheet runs it', (_name, cell) => {
    const text = file('csv', [{ ...record, content: cell, label: cell }]);
    const row = parse(text, { columns: true }) as Array<Record<string, string>>;
    expect(row[0]?.content).toBe(`'${cell}`);
    expect(row[0]?.label).toBe(`'${cell}`);
  });

  it('csv: other cells, numbers and text that only contains those characters are left as they are', () => {
    const row = parse(file('csv', [{ ...record, content: 'a=b', label: 'x-y' }]), { columns: true }) as Array<Record<string, string>>;
    expect(row[0]).toMatchObject({ content: 'a=b', label: 'x-y', confidence: '0.927' });
  });

  it('openai: a user prompt (instruction, options, content) then the assistant label', () => {
    const parsed = JSON.parse(file('openai', [record]));
    expect(parsed).toEqual({
      messages: [
        {
          role: 'user',
          content: 'Classify the sentiment of the following text. Answer with one of: positive, negative, neutral.\n\nGreat, "really" great\nproduct',
        },
        { role: 'assistant', content: 'positive' },
      ],
    });
    expect(promptFor({ ...record, type: 'BINARY_CHOICE', options: ['yes', 'no'] })).toMatch(/^Answer the following question\. Answer with one of: yes, no\./);
  });

  it('huggingface: text, label and the zero-based position of the label in the options', () => {
    expect(JSON.parse(file('huggingface', [{ ...record, label: 'neutral' }]))).toEqual({ text: record.content, label: 'neutral', label_id: 2 });
  });

  it('alpaca: instruction with the options, input = content, output = label', () => {
    expect(JSON.parse(file('alpaca', [record]))).toEqual({
      instruction: 'Classify the sentiment of the following text. Answer with one of: positive, negative, neutral.',
      input: record.content,
      output: 'positive',
    });
  });

  describe('a multi-select task', () => {
    const tagged: ExportRecord = {
      ...record,
      options: ['spam', 'offensive', 'fine'],
      label: '["spam","offensive"]',
      answerKind: 'multi',
      optionConfidence: { spam: 0.99, offensive: 0.97, fine: 0.98 },
    };
    const empty: ExportRecord = { ...tagged, label: '[]' };

    it('json and jsonl give the set joined by | and as a list, with each option’s confidence', () => {
      expect(JSON.parse(file('json', [tagged]))[0]).toMatchObject({
        label: 'spam|offensive',
        choices: ['spam', 'offensive'],
        answerKind: 'multi',
        optionConfidence: tagged.optionConfidence,
      });
      expect(JSON.parse(file('jsonl', [empty]))).toMatchObject({ label: '', choices: [] });
    });

    it('csv joins the set with | as an import does; huggingface gives the labels and their ids as lists', () => {
      expect(parse(file('csv', [tagged]), { columns: true })[0]).toMatchObject({ label: 'spam|offensive' });
      expect(parse(file('csv', [empty]), { columns: true })[0]).toMatchObject({ label: '' });
      expect(JSON.parse(file('huggingface', [tagged]))).toEqual({ text: record.content, label: ['spam', 'offensive'], label_id: [0, 1] });
    });

    it('openai and alpaca ask for every option that applies and answer with the set, "none" for the empty one', () => {
      const instruction =
        'Classify the sentiment of the following text. Answer with every one that applies, separated by commas, or "none" if none does: spam, offensive, fine.';
      expect(JSON.parse(file('alpaca', [tagged]))).toEqual({ instruction, input: record.content, output: 'spam, offensive' });
      expect(JSON.parse(file('openai', [empty])).messages[1]).toEqual({ role: 'assistant', content: 'none' });
    });
  });

  describe('a pairwise task', () => {
    const pair: ExportRecord = {
      ...record,
      type: 'AI_RESPONSE_RATING',
      content: 'Explain a mutex.',
      options: ['A', 'B'],
      label: 'B',
      answerKind: 'pairwise',
      candidates: { A: 'A lock.', B: 'A lock one thread holds at a time.' },
      group: 'mutex',
      groupRanking: [
        { candidate: 'A lock one thread holds at a time.', score: 0.5, rank: 1 },
        { candidate: 'A lock.', score: -0.5, rank: 2 },
      ],
    };

    it('json and jsonl add the candidates, the group and its ranking', () => {
      expect(JSON.parse(file('jsonl', [pair]))).toEqual({
        id: 'c1',
        type: 'AI_RESPONSE_RATING',
        content: 'Explain a mutex.',
        label: 'B',
        answerKind: 'pairwise',
        candidates: pair.candidates,
        group: 'mutex',
        groupRanking: pair.groupRanking,
      });
    });

    it('preference writes the chosen and rejected candidate; a tie keeps A and B and says so', () => {
      expect(JSON.parse(file('preference', [pair]))).toEqual({
        prompt: 'Explain a mutex.',
        chosen: 'A lock one thread holds at a time.',
        rejected: 'A lock.',
        confidence: record.confidence,
        id: 'c1',
      });
      expect(JSON.parse(file('preference', [{ ...pair, label: 'A' }]))).toMatchObject({ chosen: 'A lock.', rejected: 'A lock one thread holds at a time.' });
      expect(JSON.parse(file('preference', [{ ...pair, options: ['A', 'B', 'tie'], label: 'tie' }]))).toMatchObject({ chosen: 'A lock.', tie: true });
    });

    it('the chat formats, csv and huggingface give the prompt with both candidates, labelled as the answer names them', () => {
      const instruction = 'Which of the two responses to the prompt is better? Answer with one of: A, B.';
      const input = 'Prompt:\nExplain a mutex.\n\nResponse A:\nA lock.\n\nResponse B:\nA lock one thread holds at a time.';
      expect(JSON.parse(file('alpaca', [pair]))).toEqual({ instruction, input, output: 'B' });
      expect(JSON.parse(file('openai', [pair])).messages).toEqual([
        { role: 'user', content: `${instruction}\n\n${input}` },
        { role: 'assistant', content: 'B' },
      ]);
      expect(parse(file('csv', [pair]), { columns: true })[0]).toMatchObject({ content: input, label: 'B' });
      expect(JSON.parse(file('huggingface', [pair]))).toEqual({
        text: 'Explain a mutex.',
        candidate_a: 'A lock.',
        candidate_b: 'A lock one thread holds at a time.',
        label: 'B',
        label_id: 1,
      });
    });
  });

  describe('a text task', () => {
    const written: ExportRecord = {
      ...record,
      content: 'Describe a cat in one sentence.',
      options: [],
      label: 'A small furry animal that purrs.',
      answerKind: 'text',
    };

    it('the chat formats take the instruction as the prompt and the written answer as the response', () => {
      expect(JSON.parse(file('openai', [written])).messages).toEqual([
        { role: 'user', content: 'Describe a cat in one sentence.' },
        { role: 'assistant', content: 'A small furry animal that purrs.' },
      ]);
      expect(JSON.parse(file('alpaca', [written]))).toEqual({
        instruction: 'Describe a cat in one sentence.',
        input: '',
        output: 'A small furry animal that purrs.',
      });
      expect(JSON.parse(file('huggingface', [written]))).toEqual({ text: 'Describe a cat in one sentence.', response: 'A small furry animal that purrs.' });
      expect(JSON.parse(file('jsonl', [written]))).toMatchObject({ label: 'A small furry animal that purrs.', answerKind: 'text' });
    });
  });

  describe('a rating task', () => {
    const rating: ExportRecord = {
      ...record,
      type: 'AI_RESPONSE_RATING',
      options: ['1', '2', '3', '4', '5'],
      label: '4',
      answerKind: 'rating',
      rating: { mean: 3.0921, interval: [3, 4] },
    };

    it('json and jsonl add the kind and the posterior mean and interval; a single-choice record has neither', () => {
      expect(JSON.parse(file('json', [rating]))[0]).toMatchObject({ label: '4', answerKind: 'rating', rating: { mean: 3.0921, interval: [3, 4] } });
      expect(JSON.parse(file('jsonl', [rating]))).toEqual({
        id: 'c1',
        type: 'AI_RESPONSE_RATING',
        content: record.content,
        label: '4',
        answerKind: 'rating',
        rating: { mean: 3.0921, interval: [3, 4] },
      });
      expect(Object.keys(JSON.parse(file('jsonl', [record])))).toEqual(['id', 'type', 'content', 'label']);
    });

    it('csv keeps its columns (the level as the label); huggingface numbers the level from the lowest', () => {
      expect(parse(file('csv', [rating]), { columns: true })[0]).toMatchObject({ label: '4', confidence: '0.927' });
      expect(JSON.parse(file('huggingface', [rating]))).toMatchObject({ label: '4', label_id: 3 });
    });

    it('openai and alpaca give the levels as a scale from lowest to highest', () => {
      const instruction = 'Rate the following AI response. Answer with one level of the scale, from lowest to highest: 1, 2, 3, 4, 5.';
      expect(JSON.parse(file('alpaca', [rating]))).toEqual({ instruction, input: record.content, output: '4' });
      expect(JSON.parse(file('openai', [rating])).messages[0].content).toBe(`${instruction}\n\n${record.content}`);
    });
  });
});

describe('splitSizes', () => {
  it.each([
    [0, 0.8, 0.1, { train: 0, val: 0, test: 0 }],
    [1, 0.8, 0.1, { train: 1, val: 0, test: 0 }],
    [2, 0.8, 0.1, { train: 2, val: 0, test: 0 }],
    [2, 0.5, 0.5, { train: 1, val: 1, test: 0 }],
    [10, 0.8, 0.1, { train: 8, val: 1, test: 1 }],
    [5, 0.5, 0.5, { train: 3, val: 2, test: 0 }],
    [7, 0.25, 0.25, { train: 2, val: 2, test: 3 }],
    [3, 0, 1, { train: 0, val: 3, test: 0 }],
  ])('n=%i train=%f val=%f', (n, train, val, expected) => {
    const sizes = splitSizes(n, train, val);
    expect(sizes).toEqual(expected);
    expect(sizes.train + sizes.val + sizes.test).toBe(n);
  });
});
