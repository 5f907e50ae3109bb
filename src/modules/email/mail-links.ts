// The links of a plain-text mail, so a reader without a mailbox (the development dashboard) can follow them.

// An absolute http(s) URL runs to the next space, quote, angle bracket or parenthesis.
const URL_PATTERN = /https?:\/\/[^\s"'<>()]+/g;
// Punctuation that ends a sentence is not part of the URL before it.
const TRAILING_PUNCTUATION = /[.,;:!?]+$/;

/** The absolute http(s) URLs in a text, in order of appearance, each once. */
export function linksIn(text: string): string[] {
  const links = (text.match(URL_PATTERN) ?? []).map((url) => url.replace(TRAILING_PUNCTUATION, '')).filter((url) => URL.canParse(url));
  return [...new Set(links)];
}
