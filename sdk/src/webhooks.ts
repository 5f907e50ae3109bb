// Checks that a webhook request came from Concord: `x-service-signature: sha256=<hex HMAC-SHA256 of the
// exact body bytes, keyed with your secret>`. Web Crypto only, so it runs in Node.js, Deno, Bun and
// browsers alike; compare against the raw body, never a re-serialised JSON object.
const encoder = new TextEncoder();

function hexToBytes(hex: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[0-9a-f]{64}$/i.test(hex)) return null;
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

export async function verifyWebhookSignature(body: string | Uint8Array<ArrayBuffer>, signatureHeader: string | null | undefined, secret: string): Promise<boolean> {
  const given = hexToBytes((signatureHeader ?? '').replace(/^sha256=/, ''));
  if (!given || !signatureHeader?.startsWith('sha256=')) return false;
  const key = await globalThis.crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  const bytes = typeof body === 'string' ? encoder.encode(body) : body;
  // subtle.verify compares in constant time.
  return globalThis.crypto.subtle.verify('HMAC', key, given, bytes);
}
