// Where a pasted JSON text breaks, checked against the engine itself: wherever V8's JSON.parse says
// "at position N", jsonErrorOffset finds N; where it says the text ended, the offset is the end; where
// it names an unexpected token, the offset points at that token.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonErrorOffset, locateJsonError } from './jsonPosition';

/** Valid JSON with one edit: a character inserted, removed or replaced, or the text cut short. */
const brokenJson = fc
  .tuple(
    fc.json({ maxDepth: 3 }),
    fc.nat(),
    fc.constantFrom('insert', 'remove', 'replace', 'cut'),
    fc.constantFrom(',', ':', '"', '{', '}', '[', ']', 'x', '0', '-', '.', 'e', ' ', '\n', '\\', '\u0001'),
  )
  .map(([text, at, edit, char]) => {
    const i = text.length === 0 ? 0 : at % text.length;
    if (edit === 'insert') return text.slice(0, i) + char + text.slice(i);
    if (edit === 'remove') return text.slice(0, i) + text.slice(i + 1);
    if (edit === 'replace') return text.slice(0, i) + char + text.slice(i + 1);
    return text.slice(0, i);
  });

function engineError(text: string): string | null {
  try {
    JSON.parse(text);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('jsonErrorOffset', () => {
  it('agrees with the engine on where a broken text stops being JSON', () => {
    let compared = 0;
    fc.assert(
      fc.property(brokenJson, (text) => {
        const message = engineError(text);
        if (message === null) return;
        const offset = jsonErrorOffset(text);
        expect(offset).toBeGreaterThanOrEqual(0);
        expect(offset).toBeLessThanOrEqual(text.length);
        const position = / at position (\d+)/.exec(message)?.[1];
        if (position !== undefined) {
          compared += 1;
          expect(offset).toBe(Number(position));
        } else if (/Unexpected end of JSON input/.test(message)) {
          expect(offset).toBe(text.length);
        } else {
          const token = /^Unexpected token '(.)'/.exec(message)?.[1];
          if (token !== undefined) expect(text[offset]).toBe(token);
        }
      }),
      { numRuns: 5000 },
    );
    expect(compared).toBeGreaterThan(100);
  });

  it('says where, in lines and columns, with the engine’s reason and without its echo of the text', () => {
    const text = '{\n  "tasks": [\n    {"type": "A",}\n  ]\n}';
    let error: unknown;
    try {
      JSON.parse(text);
    } catch (caught) {
      error = caught;
    }
    const problem = locateJsonError(text, error);
    expect(problem).toMatchObject({ position: text.indexOf('}'), line: 3, column: 18 });
    expect(problem.message).not.toMatch(/position|is not valid JSON/);
  });
});
