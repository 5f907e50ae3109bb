// The secret of a buyer API key: `cnc_<mode>_` and 43 base62 characters from the CSPRNG (256 bits).
// The recognisable prefix lets secret scanners (GitHub's, gitleaks…) find a leaked key; the mode says at
// a glance whether it moves real money (`live`: Stripe) or sandbox money (`test`).
import { randomBytes } from 'node:crypto';

export type BuyerApiKeyMode = 'live' | 'test';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 43 characters of base62 carry 43 × log2(62) ≈ 256.0 bits: as much as 32 random bytes. */
const RANDOM_CHARACTERS = 43;
/** What the dashboard and the list show of a secret: the mode and five random characters (`cnc_test_AbCdE`). */
const DISPLAY_PREFIX_LENGTH = 'cnc_test_'.length + 5;

export const BUYER_API_KEY_PATTERN = /^cnc_(?:live|test)_[0-9A-Za-z]{43}$/;

/** `live` with Stripe, `test` with the sandbox provider (anyone can pay there without money). */
export const modeForProvider = (paymentProvider: 'sandbox' | 'stripe'): BuyerApiKeyMode => (paymentProvider === 'stripe' ? 'live' : 'test');

/** A new secret, e.g. `cnc_test_4fQ…` (52 characters). */
export function newBuyerApiKeySecret(mode: BuyerApiKeyMode): string {
  let out = '';
  while (out.length < RANDOM_CHARACTERS) {
    for (const byte of randomBytes(64)) {
      // 248 = 4 × 62: rejecting the top eight byte values keeps every character equally likely.
      if (byte < 248 && out.length < RANDOM_CHARACTERS) out += BASE62[byte % 62];
    }
  }
  return `cnc_${mode}_${out}`;
}

/** Whether a bearer credential has the shape of a buyer API key (checked before any database work). */
export const isBuyerApiKeySecret = (credential: string) => BUYER_API_KEY_PATTERN.test(credential);

/** The part of a secret that is kept in clear to tell keys apart. */
export const displayPrefix = (secret: string) => secret.slice(0, DISPLAY_PREFIX_LENGTH);
