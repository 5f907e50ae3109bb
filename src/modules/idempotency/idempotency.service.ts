// Idempotency-Key on creation routes: the first successful response of (account, key) is stored in the
// same transaction as what it created, and a repeat with the same request gets that response back
// without creating anything. Errors are not stored: they created nothing, so a retry may run again.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { UnitOfWork } from '../../db/database.ts';
import type { IdempotencyRawRepository, IdempotencyRepository } from './idempotency.repository.ts';
import type { Clock } from '../../lib/clock.ts';
import { BadRequestError, ConflictError } from '../../lib/errors.ts';
import { jsonInSlices } from '../../lib/json-in-slices.ts';

/** The repositories used here: a slice of the unit of work's registries (src/repositories.ts). */
type Repos = { idempotency: IdempotencyRepository };
type RawRepos = { idempotency: IdempotencyRawRepository };

/** contract: keys are kept 24 hours. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

export type Outcome<T> =
  /** `json`: the body's JSON text, when it was written to be stored under the key. */
  | { replayed: false; status: number; body: T; json?: string }
  /** The stored response of an earlier request, as the JSON text first sent. */
  | { replayed: true; status: number; json: string };

/** A stable digest of what a request asks for: its route and its body (or file bytes). */
export function requestFingerprint(route: string, payload: unknown): string {
  const hash = createHash('sha256').update(route).update('\n');
  if (Buffer.isBuffer(payload)) hash.update(payload);
  else hash.update(canonicalJson(payload));
  return hash.digest('hex');
}

/** JSON with object keys sorted, so key order does not make two equal bodies differ. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Keys and responses are stored so that reading the table reveals neither: the key as its SHA-256, and the
 * response (which may hold a secret shown once, such as a new developer's API key) encrypted with
 * AES-256-GCM under a key derived from the account and the Idempotency-Key itself, which only the client
 * holds. A replay, which presents the key, can open it; a database dump cannot.
 */
export const idempotencyKeyDigest = (key: string) => createHash('sha256').update(key).digest('hex');

const SEALED = 'v1:';
const responseKey = (accountId: string, key: string) => createHash('sha256').update(`concord.idempotency.response\n${accountId}\n${key}`).digest();

function sealResponse(accountId: string, key: string, json: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', responseKey(accountId, key), iv);
  const sealed = Buffer.concat([cipher.update(json, 'utf8'), cipher.final()]);
  return SEALED + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
}

function openResponse(accountId: string, key: string, stored: string): string {
  if (!stored.startsWith(SEALED)) return stored; // stored before responses were sealed
  const bytes = Buffer.from(stored.slice(SEALED.length), 'base64');
  const decipher = createDecipheriv('aes-256-gcm', responseKey(accountId, key), bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
}

export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header[0] : header;
  if (key === undefined || key.length < 1 || key.length > 255) {
    throw new BadRequestError('VALIDATION_ERROR', 'Idempotency-Key must be 1 to 255 characters', {
      issues: [{ path: 'Idempotency-Key', message: 'must be 1 to 255 characters' }],
    });
  }
  return key;
}

/** `W`: the raw repositories the callers' work (`run`) needs besides the keys'. */
export class IdempotencyService<W = unknown> {
  constructor(
    private readonly db: UnitOfWork<Repos, W & RawRepos>,
    private readonly clock: Clock,
  ) {}

  /** Deletes keys older than the retention period; returns how many went. */
  sweepExpired(): Promise<number> {
    return this.db.repos.idempotency.deleteExpired(new Date(this.clock.now().getTime() - IDEMPOTENCY_RETENTION_MS));
  }

  /** Runs `work` in one raw-SQL transaction, guarded by the key when there is one (task creation). */
  run<T>(accountId: string, key: string | undefined, fingerprint: string, status: number, work: (repos: W) => Promise<T>): Promise<Outcome<T>> {
    // On the pg pool: creation inserts thousands of rows as one parameter per statement, where Prisma's
    // per-query overhead grows with the parameter; every repository method used here is raw SQL.
    return this.db.rawTransaction((repos) => this.guarded(repos, accountId, key, fingerprint, status, () => work(repos)));
  }

  /**
   * Runs `work` guarded by the key in an ambient transaction: every database call it makes through the
   * unit of work joins the transaction that claims the key and stores the response.
   */
  runAmbient<T>(accountId: string, key: string, fingerprint: string, status: number, work: () => Promise<T>): Promise<Outcome<T>> {
    return this.db.ambientTransaction((repos) => this.guarded(repos, accountId, key, fingerprint, status, work));
  }

  private async guarded<T>(
    repos: RawRepos,
    accountId: string,
    key: string | undefined,
    fingerprint: string,
    status: number,
    work: () => Promise<T>,
  ): Promise<Outcome<T>> {
    if (key !== undefined) {
      const now = this.clock.now();
      const claim = await repos.idempotency.claim(accountId, idempotencyKeyDigest(key), fingerprint, now, new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS));
      if (!claim.claimed) {
        if (claim.requestHash !== fingerprint || claim.statusCode === null || claim.response === null) {
          throw new ConflictError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different request');
        }
        return { replayed: true, status: claim.statusCode, json: openResponse(accountId, key, claim.response) };
      }
    }
    const body = await work();
    if (key === undefined) return { replayed: false, status, body };
    const json = await jsonInSlices(body);
    await repos.idempotency.complete(accountId, idempotencyKeyDigest(key), status, sealResponse(accountId, key, json));
    return { replayed: false, status, body, json };
  }
}
