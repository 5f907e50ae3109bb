// Which developer an API key belongs to, remembered for a moment: every SDK call authenticates, and the
// lookup was a database round trip on each (see bench/README.md). A key that is regenerated or whose
// developer is disabled is forgotten at once in this process; another server process may still accept
// it for up to API_KEY_CACHE_TTL_MS.
export const API_KEY_CACHE_TTL_MS = 2_000;
const MAX_ENTRIES = 10_000;

export class ApiKeyCache {
  private readonly entries = new Map<string, { developerId: string; expiresAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  get(keyHash: string): string | undefined {
    const entry = this.entries.get(keyHash);
    if (!entry) return undefined;
    if (entry.expiresAt > this.now()) return entry.developerId;
    this.entries.delete(keyHash);
    return undefined;
  }

  set(keyHash: string, developerId: string): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(keyHash, { developerId, expiresAt: this.now() + API_KEY_CACHE_TTL_MS });
  }

  /** Drops every key of this developer (after a new key, a disable or any change of the account). */
  forgetDeveloper(developerId: string): void {
    for (const [hash, entry] of this.entries) if (entry.developerId === developerId) this.entries.delete(hash);
  }
}
