// A fresh Idempotency-Key (contract §4) for one creating request and its retries. crypto.randomUUID
// exists only in secure contexts; a dashboard opened over plain HTTP on a LAN address falls back to
// getRandomValues, which exists everywhere.
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function' && window.isSecureContext) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
