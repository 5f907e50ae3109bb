// How a receiver checks that a delivery comes from Concord: the Standard Webhooks headers (verified with
// the standardwebhooks libraries or the SDK), the spec's x-service-signature for other secrets, and a
// Node.js sample.
import type { ReactNode } from 'react';

const NODE_SAMPLE = `import express from 'express';
import { Webhook } from 'standardwebhooks'; // npm install standardwebhooks

const webhook = new Webhook(process.env.CONCORD_WEBHOOK_SECRET); // whsec_…
const app = express();
app.post('/concord', express.raw({ type: 'application/json' }), (req, res) => {
  let event;
  try {
    // The raw body bytes; checks webhook-signature and that webhook-timestamp is within 5 minutes.
    event = webhook.verify(req.body, req.headers);
  } catch {
    return res.sendStatus(401);
  }
  // De-duplicate by req.get('webhook-id'): the same event id on every retry and redelivery.
  res.sendStatus(204); // answer 2xx within 10 s, then handle event.event
});`;

/** How a receiver checks that a request comes from Concord. */
export function SignatureHelp({ compact = false }: { compact?: boolean }) {
  const body: ReactNode = (
    <>
      <p>
        With a <code>whsec_</code> secret (what this dashboard generates), every delivery carries the{' '}
        <a href="https://www.standardwebhooks.com" rel="noreferrer" target="_blank">
          Standard Webhooks
        </a>{' '}
        headers <code>webhook-id</code>, <code>webhook-timestamp</code> and <code>webhook-signature</code>: verify them with the <code>standardwebhooks</code>{' '}
        library of your language (JavaScript, Python, Go, Ruby, PHP, Java, Rust…) or the Concord SDK's <code>verifyWebhook(rawBody, headers, secret)</code>.
        They refuse a timestamp more than 5 minutes old, so a captured request cannot be replayed.
      </p>
      <pre className="wh-code" tabIndex={0} aria-label="Signature check in Node.js">
        <code>{NODE_SAMPLE}</code>
      </pre>
      <p>
        Every delivery also carries <code>x-service-signature: sha256=&lt;hex&gt;</code>, the HMAC-SHA256 of the exact body bytes keyed with the whole secret as
        you copied it (<code>whsec_</code> prefix included) — the only signature for a secret of your own that is not a <code>whsec_</code> one (the SDK's{' '}
        <code>verifyWebhookSignature</code>). <code>x-service-event</code> names the event.
      </p>
      <p className="field-hint">
        Answer 2xx within 10 s. What happens after a failure is the webhook's retry policy: one retry 30 s later (spec), or up to 8 attempts over about a day
        (extended).
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
