import { describe, expect, it } from 'vitest';
import { readTaskCsv, type CsvRecord } from '../../src/modules/tasks/task-csv.ts';

async function read(text: string | Buffer): Promise<CsvRecord[]> {
  const records: CsvRecord[] = [];
  for await (const record of readTaskCsv(Buffer.from(text))) records.push(record);
  return records;
}

describe('readTaskCsv', () => {
  it('splits options on pipes and keeps commas inside quoted fields', async () => {
    expect(await read('type,content,options\nBINARY_CHOICE,"a, b",x|y\n')).toEqual([
      { row: 1, ok: true, task: { type: 'BINARY_CHOICE', content: 'a, b', options: ['x', 'y'] } },
    ]);
  });

  it('unescapes doubled quotes', async () => {
    const [record] = await read('type,content,options\nBINARY_CHOICE,"say ""hi""",x|y\n');
    expect(record).toMatchObject({ ok: true, task: { content: 'say "hi"' } });
  });

  it('numbers data records from 1, not counting the header or blank lines', async () => {
    const records = await read('type,content,options\r\n\r\nA,b,c|d\r\n\r\n\r\nA,e,f|g\r\n');
    expect(records.map((r) => r.row)).toEqual([1, 2]);
  });

  it('ignores a byte order mark', async () => {
    const [record] = await read(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('type,content,options\nA,b,c|d\n')]));
    expect(record).toMatchObject({ ok: true, task: { type: 'A' } });
  });

  it('ignores a byte order mark before a quoted first column', async () => {
    const [record] = await read(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('"type","content",options\n"A",b,c|d\n')]));
    expect(record).toEqual({ row: 1, ok: true, task: { type: 'A', content: 'b', options: ['c', 'd'] } });
  });

  it('parses numeric columns and leaves empty optional cells out', async () => {
    const [record] = await read('type,content,options,maxCents,locale,validationsNeeded\nA,b,c|d,30,,5\n');
    expect(record).toEqual({ row: 1, ok: true, task: { type: 'A', content: 'b', options: ['c', 'd'], maxCents: 30, validationsNeeded: 5 } });
  });

  it('reports a record with the wrong number of fields as a row error', async () => {
    expect(await read('type,content,options\nA,b\n')).toEqual([{ row: 1, ok: false, error: 'Expected 3 fields, found 2' }]);
  });

  it('lists a row with bytes that are not UTF-8, or a NUL, as an invalid row and reads the others', async () => {
    const bytes = Buffer.concat([
      Buffer.from('type,content,options\nBINARY_CHOICE,caf'),
      Buffer.from([0xe9]), // Latin-1 é: not UTF-8
      Buffer.from(',x|y\nBINARY_CHOICE,ok,x|y\nBINARY_CHOICE,'),
      Buffer.from([0xed, 0xa0, 0x80]), // an encoded surrogate: not UTF-8 either
      Buffer.from(',x|y\nBINARY_CHOICE,a\u0000b,x|y\nBINARY_CHOICE,"caf\u00e9 \ufffd ok",x|y\n'),
    ]);
    const records = await read(bytes);
    expect(records).toEqual([
      { row: 1, ok: false, error: 'The row holds bytes that are not valid UTF-8' },
      { row: 2, ok: true, task: { type: 'BINARY_CHOICE', content: 'ok', options: ['x', 'y'] } },
      { row: 3, ok: false, error: 'The row holds bytes that are not valid UTF-8' },
      { row: 4, ok: false, error: 'A field must not contain a NUL character' },
      // A replacement character that is really in the file is valid UTF-8 and stays.
      { row: 5, ok: true, task: { type: 'BINARY_CHOICE', content: 'caf\u00e9 \ufffd ok', options: ['x', 'y'] } },
    ]);
  });

  it('refuses a row of bytes that are not UTF-8 also in a file that opens with a byte order mark', async () => {
    // csv-parse turns to lossy text when it meets a BOM: such a row must not become one of replacement characters.
    const bytes = Buffer.concat([
      Buffer.from('\uFEFF"type",content,options\nBINARY_CHOICE,caf'),
      Buffer.from([0xe9]),
      Buffer.from(',y|n\nBINARY_CHOICE,ok,y|n\n'),
    ]);
    expect(await read(bytes)).toEqual([
      { row: 1, ok: false, error: 'The row holds bytes that are not valid UTF-8' },
      { row: 2, ok: true, task: { type: 'BINARY_CHOICE', content: 'ok', options: ['y', 'n'] } },
    ]);
  });

  it('refuses a header that is not UTF-8 as INVALID_CSV', async () => {
    await expect(read(Buffer.concat([Buffer.from('type,cont'), Buffer.from([0xff]), Buffer.from('ent,options\n')]))).rejects.toMatchObject({
      code: 'INVALID_CSV',
    });
  });

  it('refuses a header without the required columns, with duplicates or with unknown columns', async () => {
    await expect(read('type,content\nA,b\n')).rejects.toMatchObject({ code: 'INVALID_CSV', message: expect.stringMatching(/options/) });
    await expect(read('type,content,options,type\n')).rejects.toMatchObject({ code: 'INVALID_CSV', message: expect.stringMatching(/Duplicate/) });
    await expect(read('type,content,options,extra\n')).rejects.toMatchObject({ code: 'INVALID_CSV', message: expect.stringMatching(/extra/) });
  });

  it('refuses unparseable CSV and an empty file', async () => {
    await expect(read('type,content,options\nA,"open,c|d\n')).rejects.toMatchObject({ code: 'INVALID_CSV' });
    await expect(read('')).rejects.toMatchObject({ code: 'INVALID_CSV' });
  });
});
