// Password hashing: bcrypt with a cost of at least 10 (contract), over a pre-hash so that every character
// counts. bcrypt reads only the first 72 bytes of its input (18 four-byte emoji), so two passwords of up to
// 128 characters that share those bytes would both log in; it is given instead the base64 of
// HMAC-SHA256(PRE_HASH_KEY, password), 44 characters whatever the password's length (base64, not the raw
// digest, because a NUL byte would end bcrypt's input early). The key is not a secret: it names the scheme
// (a changed key would be a new scheme), and the hash is stored with the PRE_HASHED prefix. A hash without
// the prefix is plain bcrypt from before: it is still accepted, and replaced at the next login.
import { createHmac } from 'node:crypto';
import bcrypt from 'bcrypt';

/** contract: bcrypt with a cost of at least 10. */
const BCRYPT_COST = 10;
const PRE_HASH_KEY = 'concord password pre-hash v1';
/** Marks a stored hash of the pre-hashed scheme (the rest is bcrypt's own `$2b$…`). */
export const PRE_HASHED = 'ph1$';

const preHash = (password: string) => createHmac('sha256', PRE_HASH_KEY).update(password, 'utf8').digest('base64');

export async function hashPassword(password: string): Promise<string> {
  return `${PRE_HASHED}${await bcrypt.hash(preHash(password), BCRYPT_COST)}`;
}

// Compared against when the e-mail is unknown, so a login takes as long whether or not it exists.
const DUMMY_HASH = `${PRE_HASHED}${bcrypt.hashSync(preHash('concord-timing-equaliser'), BCRYPT_COST)}`;

/** `match`, `mismatch`, or `legacy`: right, against a plain bcrypt hash that should be replaced now. */
export type PasswordCheck = 'match' | 'mismatch' | 'legacy';

export async function checkPassword(password: string, hash: string | null | undefined): Promise<PasswordCheck> {
  const stored = hash ?? DUMMY_HASH;
  if (stored.startsWith(PRE_HASHED)) {
    const ok = await bcrypt.compare(preHash(password), stored.slice(PRE_HASHED.length));
    return ok && hash ? 'match' : 'mismatch';
  }
  return (await bcrypt.compare(password, stored)) ? 'legacy' : 'mismatch';
}

/** Whether the password is right (either scheme). */
export const verifyPassword = async (password: string, hash: string | null | undefined): Promise<boolean> =>
  (await checkPassword(password, hash)) !== 'mismatch';
