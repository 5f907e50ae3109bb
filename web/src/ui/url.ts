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
