// How a receiver checks that a delivery comes from Concord: the header, the HMAC and a Node.js sample.
import type { ReactNode } from 'react';

const NODE_SAMPLE = `import { createHmac, timingSafeEqual } from 'node:crypto';

// rawBody: the request body exactly as received (bytes), before any JSON parsing.
export function isFromConcord(rawBody, signatureHeader, secret) {
  const expected = Buffer.from('sha256=' + createHmac('sha256', secret).update(rawBody).digest('hex'));
  const received = Buffer.from(String(signatureHeader ?? '').trim());
  return received.length === expected.length && timingSafeEqual(received, expected);
}

// Express, with the body kept as bytes:
// app.post('/concord', express.raw({ type: 'application/json' }), (req, res) => {
//   const secret = process.env.CONCORD_WEBHOOK_SECRET;
//   if (!isFromConcord(req.body, req.get('x-service-signature'), secret)) return res.sendStatus(401);
//   res.sendStatus(204); // answer within 10 s, then handle JSON.parse(req.body)
// });`;

/** How a receiver checks that a request comes from Concord. */
export function SignatureHelp({ compact = false }: { compact?: boolean }) {
  const body: ReactNode = (
    <>
      <p>
        Every delivery is a <code>POST</code> with a JSON body and the header <code>x-service-signature: sha256=&lt;hex&gt;</code>, the
        HMAC-SHA256 of the exact body bytes keyed with your secret. Compute it over the raw body (before parsing it), keyed with the whole
        secret as you copied it, <code>whsec_</code> prefix included, and compare in constant time; refuse the request when they differ.
      </p>
      <p>
        <code>x-service-event</code> names the event and <code>x-service-delivery</code> the delivery (the same on a retry, so use it to ignore
        repeats). Answer 2xx within 10 s. A timeout, a network error or a 5xx is retried once 30 s later; a 4xx is not retried.
      </p>
      <pre className="wh-code" tabIndex={0} aria-label="Signature check in Node.js">
        <code>{NODE_SAMPLE}</code>
      </pre>
      <p className="field-hint">
        The Concord SDK does the same check: <code>verifyWebhookSignature(rawBody, header, secret)</code> from <code>@concord/sdk</code>.
      </p>
    </>
  );
  if (compact) {
    return (
      <details className="wh-help">
        <summary>How to verify the signature</summary>
        {body}
      </details>
    );
  }
  return body;
}
