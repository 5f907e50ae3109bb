// The fields of accounts, apps, keys and the administrator's actions as the API bounds them: the service's
// schemas and the dashboard's forms read the same limits.
import { z } from 'zod';

/** RFC 5321's longest address. */
export const EMAIL_MAX_LENGTH = 254;
/** contract: a password is 8 to 128 characters. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const COMPANY_NAME_MAX_LENGTH = 200;
export const APP_NAME_MAX_LENGTH = 200;
export const URL_MAX_LENGTH = 2048;
/** A buyer holds at most 20 live (unrevoked) API keys, enough for one per service and environment, each named in 1 to 100 characters. */
export const MAX_LIVE_API_KEYS = 20;
export const API_KEY_NAME_MAX_LENGTH = 100;
/** A key may be limited to at most this many projects. */
export const API_KEY_MAX_PROJECTS = 50;
/** A key's access: `write` reaches every buyer route but account management, `read` what a viewer reads. */
export const API_KEY_ACCESS = ['read', 'write'] as const;
export type ApiKeyAccess = (typeof API_KEY_ACCESS)[number];
/** An administrator's note on a payout decision, and the reason of a credit adjustment. */
export const PAYOUT_NOTE_MAX_LENGTH = 1_000;
export const CREDIT_REASON_MAX_LENGTH = 500;
/** A split export's shuffle seed. */
export const EXPORT_SEED_MAX_LENGTH = 200;

export const emailSchema = z
  .string()
  .trim()
  .max(EMAIL_MAX_LENGTH)
  .pipe(z.email({ error: 'must be an e-mail address' }))
  .transform((email) => email.toLowerCase());

export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, { error: `must be at least ${PASSWORD_MIN_LENGTH} characters` })
  .max(PASSWORD_MAX_LENGTH, { error: `must be at most ${PASSWORD_MAX_LENGTH} characters` });

export const httpUrlSchema = z
  .string()
  .trim()
  .max(URL_MAX_LENGTH)
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
      } catch {
        return false;
      }
    },
    { error: 'must be an absolute http(s) URL' },
  );
