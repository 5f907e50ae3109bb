import { hash, randomBytes, randomFillSync } from 'node:crypto';

const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * A cuid-format identifier: 'c', the creation time in milliseconds (8 base-36 characters), then 16
 * characters from the CSPRNG (about 82 bits). Like cuid v1, the time prefix keeps new rows at the
 * right edge of primary-key indexes, which makes bulk inserts markedly cheaper than fully random ids.
 * Nothing relies on ids sorting by time (lists order by createdAt, then id).
 */
export function newId(): string {
  return `c${Date.now().toString(36).padStart(8, '0').slice(-8)}${randomBase36(16)}`;
}

/** API keys are fully random ('c' + 24 characters, about 124 bits): they must reveal nothing. */
export function newApiKey(): string {
  return `c${randomBase36(24)}`;
}

function randomBase36(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = nextRandomByte();
    // 252 = 7 × 36: rejecting the top four byte values keeps every character equally likely.
    if (byte < 252) out += BASE36[byte % 36];
  }
  return out;
}

// Bulk imports create tens of thousands of ids: one CSPRNG call per 8 KiB instead of one per id.
const pool = Buffer.alloc(8192);
let poolOffset = pool.length;

function nextRandomByte(): number {
  if (poolOffset >= pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++] as number;
}

/** A URL-safe single-use token (invites). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Keys and tokens are stored only as this digest and looked up by it. (`crypto.hash` is the one-shot
 * form of createHash().update().digest(): the same digest without a Hash object, on every SDK call.)
 */
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}

export const ID_PATTERN = /^c[0-9a-z]{24}$/;

/**
 * Event ids: a cuid behind the readable prefix contract §0 allows (`evt_…`), given when the event is
 * written to the outbox and sent as `webhook-id` on every delivery, retry and redelivery of it. Events
 * written before the prefix keep their plain cuid.
 */
export const newEventId = () => `evt_${newId()}`;
export const EVENT_ID_PATTERN = /^evt_c[0-9a-z]{24}$/;

/** Buyer API key ids: a cuid behind the readable prefix contract §0 allows (`key_…`). */
export const newBuyerApiKeyId = () => `key_${newId()}`;
export const BUYER_API_KEY_ID_PATTERN = /^key_c[0-9a-z]{24}$/;
