// Standard Webhooks secrets (https://www.standardwebhooks.com) made in the browser: `whsec_` followed by
// standard, padded base64 of 32 random bytes from crypto.getRandomValues. A `whsec_` secret keys the
// Standard Webhooks signatures with its decoded bytes, so the service refuses one that is not padded
// base64 of 24 to 64 bytes; `whsecProblem` applies that same rule here (the service's is
// standardSecretProblem in src/modules/webhooks/signature.ts, which needs Node's Buffer: whsec.test.ts
// holds the two to the same answers). Any other secret of 16–256 characters is accepted too, and gets the
// spec's signature only.

export const WHSEC_PREFIX = 'whsec_';
/** What the dashboard generates: 256 bits, as the CLI and the SDK do. */
export const WHSEC_GENERATED_BYTES = 32;
/** The sizes a `whsec_` key may decode to (Standard Webhooks' own bounds). */
export const WHSEC_MIN_BYTES = 24;
export const WHSEC_MAX_BYTES = 64;

// Standard base64 with its `=` padding, as the service, the standardwebhooks packages and the SDK decode it.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

type RandomSource = (bytes: Uint8Array<ArrayBuffer>) => Uint8Array<ArrayBuffer>;

/** A new `whsec_` secret: 32 bytes from crypto.getRandomValues, in standard base64 with its padding. */
export function generateWhsecSecret(random: RandomSource = (bytes) => crypto.getRandomValues(bytes)): string {
  const bytes = random(new Uint8Array(WHSEC_GENERATED_BYTES));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `${WHSEC_PREFIX}${btoa(binary)}`;
}

/** The number of bytes standard, padded base64 decodes to (the text must match BASE64). */
const decodedLength = (encoded: string) => (encoded.length / 4) * 3 - (encoded.endsWith('==') ? 2 : encoded.endsWith('=') ? 1 : 0);

/**
 * Why a `whsec_` secret would be refused, in a sentence, or null when it is a valid one or is not a
 * `whsec_` secret at all (those are checked only for their length).
 */
export function whsecProblem(secret: string): string | null {
  if (!secret.startsWith(WHSEC_PREFIX)) return null;
  const encoded = secret.slice(WHSEC_PREFIX.length);
  if (!BASE64.test(encoded)) {
    return 'A secret that starts with whsec_ must continue with standard base64 (A–Z, a–z, 0–9, + and /, with its = padding). Generate one here, or remove the whsec_ prefix to use your own text.';
  }
  const bytes = decodedLength(encoded);
  if (bytes < WHSEC_MIN_BYTES || bytes > WHSEC_MAX_BYTES) {
    return `A whsec_ secret decodes to ${WHSEC_MIN_BYTES} to ${WHSEC_MAX_BYTES} bytes; this one decodes to ${bytes}. Generate one here (32 bytes).`;
  }
  return null;
}

/** Whether the secret signs the Standard Webhooks headers (a valid `whsec_` secret). */
export const isStandardSecret = (secret: string): boolean => secret.startsWith(WHSEC_PREFIX) && whsecProblem(secret) === null;
