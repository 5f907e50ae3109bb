// Length limits of text fields, said in words. Fields never cut what is typed (maxLength would, without
// a word): they count as the limit nears (Field's `limit`), and the form refuses the text with tooLong.

/** From this share of the limit on, a field shows its count. */
const COUNT_FROM = 0.8;

const figure = (n: number) => n.toLocaleString('en-US');

/** "180 / 200 characters", or "205 / 200 characters: 5 too many"; null while far from the limit. */
export function countText(length: number, limit: number): string | null {
  if (length < limit * COUNT_FROM) return null;
  const figures = `${figure(length)} / ${figure(limit)} characters`;
  return length > limit ? `${figures}: ${figure(length - limit)} too many` : figures;
}

/** The form's refusal of a text over its limit, or null when it fits. */
export function tooLong(text: string, limit: number, what = 'This'): string | null {
  return text.length > limit
    ? `${what} has ${figure(text.length)} characters; the most is ${figure(limit)}. Shorten it by ${figure(text.length - limit)}.`
    : null;
}
