/** Test databases: a migrated template and one clone per worker, all named after the base database. */
export const templateName = (base: string) => `${base}_template`;
export const workerName = (base: string, poolId: string) => `${base}_w${poolId}`;

export function databaseNameOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

/** Refuses to run against anything that does not look like a test database. */
export function assertTestDatabase(url: string): void {
  const name = databaseNameOf(url);
  if (!name.includes('test')) {
    throw new Error(`Refusing to run tests against database "${name}": its name must contain "test"`);
  }
}
