import type { ZodError } from 'zod';

/** Flattens zod issues into `{path, message}` pairs; unknown keys become one issue per key. */
export function describeZodError(error: ZodError): Array<{ path: string; message: string }> {
  return error.issues.flatMap((issue) => {
    const base = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: [...base, key].join('.'), message: 'Unknown field' }));
    }
    return [{ path: base.join('.') || '(root)', message: issue.message }];
  });
}
