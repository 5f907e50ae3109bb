// Landed migrations are never edited (a database migrated by an earlier release would never see the
// change): prisma/migrations/checksums.txt holds the SHA-256 of every migration's SQL, one line each in
// sha256sum's format, and only ever grows. Pure: the script reads the files and git, this decides.
import { createHash } from 'node:crypto';

export const LEDGER_FILE = 'prisma/migrations/checksums.txt';

/** One ledger line: `<sha256>  <migration>/migration.sql`. */
export const ledgerLine = (migration: string, sql: string | Buffer): string => `${createHash('sha256').update(sql).digest('hex')}  ${migration}/migration.sql`;

/** The ledger's lines by migration (the first line of each), and the migrations listed more than once. */
export function parseLedger(text: string): Map<string, string> & { repeated: string[] } {
  const entries = Object.assign(new Map<string, string>(), { repeated: [] as string[] });
  for (const line of text.split('\n')) {
    const match = /^([0-9a-f]{64}) {2}([^/]+)\/migration\.sql$/.exec(line.trim());
    if (!match?.[1] || !match[2]) continue;
    // A second line for a migration would let an edited one pass with a new checksum beside the old.
    if (entries.has(match[2])) entries.repeated.push(match[2]);
    else entries.set(match[2], match[1]);
  }
  return entries;
}

export interface LedgerCheck {
  /** Migrations whose SQL differs from the ledger: edited after they landed. */
  edited: string[];
  /** Migrations in the ledger that are gone from disk. */
  removed: string[];
  /** Migrations on disk not in the ledger yet: new, to be added with --add. */
  added: string[];
}

/** The migrations on disk (name → SQL) against the ledger. */
export function checkLedger(onDisk: ReadonlyMap<string, string | Buffer>, ledger: ReadonlyMap<string, string>): LedgerCheck {
  const edited: string[] = [];
  const added: string[] = [];
  for (const [migration, sql] of onDisk) {
    const expected = ledger.get(migration);
    if (expected === undefined) added.push(migration);
    else if (ledgerLine(migration, sql) !== `${expected}  ${migration}/migration.sql`) edited.push(migration);
  }
  const removed = [...ledger.keys()].filter((migration) => !onDisk.has(migration));
  return { edited: edited.sort(), removed: removed.sort(), added: added.sort() };
}

/**
 * Lines the ledger's history ever removed or changed (`git log -p` of the ledger file): a ledger that
 * was rewritten to match an edited migration shows here, whatever it says today.
 */
export function rewrittenLines(gitLogPatch: string): string[] {
  return gitLogPatch.split('\n').filter((line) => /^-[0-9a-f]{64} {2}/.test(line));
}
