// What an audit entry keeps of an update: only the settings it changed, as they were and as they became.
import type { Change, Settings } from './audit.repository.ts';

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The entry of an update of `targetId` from `before` to `after`: the keys of `after` whose values differ
 * (compared as JSON), each with its old value. An update that changed nothing keeps empty objects.
 */
export function settingsChange(targetId: string, before: Settings, after: Settings): Change {
  const changed = Object.keys(after).filter((key) => after[key] !== undefined && !same(before[key], after[key]));
  return {
    targetId,
    before: Object.fromEntries(changed.map((key) => [key, before[key] ?? null])),
    after: Object.fromEntries(changed.map((key) => [key, after[key]])),
  };
}

/** `settings` with only the named keys (the ones an entry may show of a resource). */
export function pick<T extends object, K extends keyof T>(settings: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, settings[key]])) as Pick<T, K>;
}
