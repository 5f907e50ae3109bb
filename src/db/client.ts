import type { Prisma, PrismaClient } from '../generated/prisma/client.ts';

/** What a repository runs its queries on: the client, or the transaction it was handed. */
export type DbClient = PrismaClient | Prisma.TransactionClient;

const PRISMA_CODE_TO_SQLSTATE: Record<string, string> = { P2002: '23505', P2003: '23503' };

/**
 * The PostgreSQL SQLSTATE behind an error, whether Prisma mapped it to one of its own codes, passed it
 * through from the driver adapter (raw queries), or it came from `pg` directly.
 */
export function sqlState(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, meta, cause } = error as {
    code?: unknown;
    meta?: { code?: unknown; driverAdapterError?: { cause?: { originalCode?: unknown } } };
    cause?: { originalCode?: unknown };
  };
  if (typeof code === 'string' && PRISMA_CODE_TO_SQLSTATE[code]) return PRISMA_CODE_TO_SQLSTATE[code];
  const candidates = [meta?.driverAdapterError?.cause?.originalCode, meta?.code, cause?.originalCode, code];
  return candidates.find((candidate): candidate is string => typeof candidate === 'string' && /^[0-9A-Z]{5}$/.test(candidate));
}

export const isUniqueViolation = (error: unknown) => sqlState(error) === '23505';
/** foreign_key_violation, or restrict_violation from an ON DELETE RESTRICT key. */
export const isForeignKeyViolation = (error: unknown) => ['23503', '23001'].includes(sqlState(error) ?? '');

/** Prisma's "record to update/delete not found" (P2025). */
export function isRecordNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2025';
}

/** BIGINT cents come back as bigint; every amount we hold fits a double exactly (< 2^53). */
export function toCents(value: bigint | number): number {
  return Number(value);
}

/**
 * Text to find literally with Prisma's `contains` (a LIKE underneath, which Prisma does not escape): `%`
 * and `_` would otherwise match any text and any character. Backslash is PostgreSQL's LIKE escape.
 */
export const likeLiteral = (text: string) => text.replace(/[\\%_]/g, '\\$&');
