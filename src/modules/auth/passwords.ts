import bcrypt from 'bcrypt';

/** contract: bcrypt with a cost of at least 10. */
const BCRYPT_COST = 10;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_COST);
}

// Compared against when the e-mail is unknown, so a login takes as long whether or not it exists.
const DUMMY_HASH = bcrypt.hashSync('concord-timing-equaliser', BCRYPT_COST);

export function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  return bcrypt.compare(password, hash ?? DUMMY_HASH).then((ok) => ok && Boolean(hash));
}
