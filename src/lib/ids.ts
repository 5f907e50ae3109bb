import { createHash, randomBytes } from 'node:crypto';

const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * A cuid-format identifier ('c' + 24 lowercase base-36 characters) drawn from the CSPRNG, so ids and
 * API keys cannot be guessed from one another (cuid v1 leaks time and a counter).
 */
export function newId(): string {
  let id = 'c';
  while (id.length < 25) {
    for (const byte of randomBytes(32)) {
      // 252 = 7 × 36: rejecting the top four byte values keeps every character equally likely.
      if (byte < 252 && id.length < 25) id += BASE36[byte % 36];
    }
  }
  return id;
}

/** API keys look like any other cuid (the spec's "opaque cuid-format key"); about 124 bits of entropy. */
export const newApiKey = newId;

/** A URL-safe single-use token (invites). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Keys and tokens are stored only as this digest and looked up by it. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export const ID_PATTERN = /^c[0-9a-z]{24}$/;
