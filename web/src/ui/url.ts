/**
 * An absolute http(s) address with a host: what the API accepts for an app URL or a webhook, and the
 * only kind of address the dashboard follows from a response (a checkout URL). `base` resolves a
 * relative address first (against the page, for a checkout on this origin).
 */
export function isHttpUrl(text: string, base?: string): boolean {
  try {
    const url = new URL(text, base);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * An address (a URL, an e-mail) cut where a line may break in it: after "//", before each "/", "?", "&",
 * "#", "=", "@" and "." (not a decimal point: "0.1" and "127.0.0.1" stay whole), after the hyphens the
 * browser already breaks at. A long address in a narrow column then wraps between its parts, never
 * inside a word of it ("demo-receiver", not "d|emo").
 */
export function addressSegments(address: string): string[] {
  return address.split(/(?<=\/\/)|(?<=[^/])(?=[?&#=@]|\.(?!\d)|\/(?!\/))/).filter((segment) => segment !== '');
}
