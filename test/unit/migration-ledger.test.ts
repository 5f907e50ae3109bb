// Landed migrations are append-only: the ledger of their checksums (scripts/lib/migration-ledger.ts).
import { describe, expect, it } from 'vitest';
import { checkLedger, ledgerLine, parseLedger, rewrittenLines } from '../../scripts/lib/migration-ledger.ts';

const ledgerOf = (migrations: Record<string, string>) =>
  parseLedger(
    Object.entries(migrations)
      .map(([name, sql]) => ledgerLine(name, sql))
      .join('\n'),
  );

describe('the migration ledger', () => {
  const landed = { '20260101000000_init': 'CREATE TABLE a (id int);', '20260102000000_b': 'ALTER TABLE a ADD b int;' };

  it('passes migrations as they landed, and names a new one to add', () => {
    const onDisk = new Map(Object.entries({ ...landed, '20260103000000_c': 'ALTER TABLE a ADD c int;' }));
    expect(checkLedger(onDisk, ledgerOf(landed))).toEqual({ edited: [], removed: [], added: ['20260103000000_c'] });
  });

  it('names a landed migration whose SQL changed, even by one character', () => {
    const onDisk = new Map(Object.entries({ ...landed, '20260102000000_b': 'ALTER TABLE a ADD b bigint;' }));
    expect(checkLedger(onDisk, ledgerOf(landed)).edited).toEqual(['20260102000000_b']);
  });

  it('names a landed migration that was removed', () => {
    const onDisk = new Map(Object.entries({ '20260101000000_init': landed['20260101000000_init'] }));
    expect(checkLedger(onDisk, ledgerOf(landed)).removed).toEqual(['20260102000000_b']);
  });

  it('names a migration listed twice: a second checksum beside the first cannot excuse an edit', () => {
    const edited = 'ALTER TABLE a ADD b bigint;';
    const ledger = parseLedger(`${ledgerLine('20260102000000_b', landed['20260102000000_b'])}\n${ledgerLine('20260102000000_b', edited)}\n`);
    expect(ledger.repeated).toEqual(['20260102000000_b']);
    // The first line stands: the edited SQL still does not match it.
    expect(checkLedger(new Map([['20260102000000_b', edited]]), ledger).edited).toEqual(['20260102000000_b']);
  });

  it('reads sha256sum lines and ignores anything else', () => {
    const line = ledgerLine('20260101000000_init', 'x');
    expect(line).toMatch(/^[0-9a-f]{64} {2}20260101000000_init\/migration\.sql$/);
    expect([...parseLedger(`${line}\n\n# a comment\nnot a line\n`).keys()]).toEqual(['20260101000000_init']);
  });

  it('finds a ledger line that its history changed or removed', () => {
    const old = ledgerLine('20260102000000_b', 'ALTER TABLE a ADD b int;');
    const patch = [
      'diff --git a/prisma/migrations/checksums.txt b/prisma/migrations/checksums.txt',
      '--- a/prisma/migrations/checksums.txt',
      `-${old}`,
      `+${ledgerLine('20260102000000_b', 'changed')}`,
      `+${ledgerLine('20260103000000_c', 'new')}`,
    ].join('\n');
    expect(rewrittenLines(patch)).toEqual([`-${old}`]);
    expect(rewrittenLines(`+${old}\n`)).toEqual([]);
  });
});
