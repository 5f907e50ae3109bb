// Where a JSON text stops being JSON (RFC 8259), as a character offset. Browsers word JSON.parse errors
// differently and Chrome's "Unexpected token" messages carry no position at all, so the page finds the
// offset itself and keeps the engine's words for the reason. Only called after JSON.parse has failed.

const WS = new Set([' ', '\t', '\n', '\r']);

class Stop extends Error {
  constructor(readonly at: number) {
    super('stop');
  }
}

/** The offset of the first character that breaks the JSON grammar (text.length when it ends too early). */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const fail = (at = i): never => {
    throw new Stop(at);
  };
  const space = () => {
    while (i < text.length && WS.has(text[i] ?? '')) i += 1;
  };
  const literal = (word: string) => {
    for (const ch of word) {
      if (text[i] !== ch) fail();
      i += 1;
    }
  };
  const string = () => {
    i += 1; // opening quote
    while (i < text.length) {
      const ch = text[i] ?? '';
      if (ch === '"') {
        i += 1;
        return;
      }
      if (ch === '\\') {
        const next = text[i + 1] ?? '';
        if ('"\\/bfnrt'.includes(next) && next !== '') i += 2;
        else if (next === 'u') {
          // Four hex digits; V8 points at the first character that is not one.
          for (let j = i + 2; j < i + 6; j += 1) if (!/[0-9a-fA-F]/.test(text[j] ?? '')) fail(j);
          i += 6;
        } else fail(i + 1);
        continue;
      }
      if (ch < ' ') fail();
      i += 1;
    }
    fail(text.length);
  };
  const digits = () => {
    const start = i;
    while (i < text.length && (text[i] ?? '') >= '0' && (text[i] ?? '') <= '9') i += 1;
    if (i === start) fail();
  };
  const number = () => {
    if (text[i] === '-') i += 1;
    if (text[i] === '0') i += 1;
    else digits();
    if (text[i] === '.') {
      i += 1;
      digits();
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i += 1;
      if (text[i] === '+' || text[i] === '-') i += 1;
      digits();
    }
  };
  const value = (depth: number): void => {
    if (depth > 512) fail();
    space();
    const ch = text[i];
    if (ch === undefined) return fail(text.length);
    if (ch === '{') {
      i += 1;
      space();
      if (text[i] === '}') {
        i += 1;
        return;
      }
      for (;;) {
        space();
        if (text[i] !== '"') fail();
        string();
        space();
        if (text[i] !== ':') fail();
        i += 1;
        value(depth + 1);
        space();
        if (text[i] === ',') {
          i += 1;
          continue;
        }
        if (text[i] === '}') {
          i += 1;
          return;
        }
        fail();
      }
    }
    if (ch === '[') {
      i += 1;
      space();
      if (text[i] === ']') {
        i += 1;
        return;
      }
      for (;;) {
        value(depth + 1);
        space();
        if (text[i] === ',') {
          i += 1;
          continue;
        }
        if (text[i] === ']') {
          i += 1;
          return;
        }
        fail();
      }
    }
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    if (ch === '-' || (ch >= '0' && ch <= '9')) return number();
    fail();
  };
  try {
    value(0);
    space();
    if (i < text.length) fail();
  } catch (caught) {
    if (caught instanceof Stop) return Math.min(caught.at, text.length);
    throw caught;
  }
  return text.length;
}

export interface JsonProblem {
  /** The engine's words for what is wrong. */
  message: string;
  position: number;
  line: number;
  column: number;
}

/** Where and why a text that JSON.parse refused is not JSON. */
export function locateJsonError(text: string, error: unknown): JsonProblem {
  const raw = error instanceof Error ? error.message : String(error);
  const position = jsonErrorOffset(text);
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const column = position - before.lastIndexOf('\n');
  // Drop the engine's own location and its echo of the text; the page says where, in lines and columns.
  const message = raw
    .replace(/^JSON\.parse: /, '')
    .replace(/ at line \d+ column \d+ of the JSON data$/, '')
    .replace(/,? ?(in JSON )?at position \d+( \(line \d+ column \d+\))?$/, '')
    .replace(/, (\.\.\.)?"[\s\S]*"(\.\.\.)? is not valid JSON$/, '');
  return { message, position, line, column };
}
