// "Send test event": POST /webhooks/configs/:id/test sends a signed ping to the URL now and answers with
// what came back — delivered or not, the status code, the latency, the response headers and the start
// of the response body, or why nothing came back. The ping also lands in the delivery log.
import { Fragment } from 'react';
import { Button } from '../ui/Button';
import { ErrorNote } from '../ui/Feedback';
import { formatCount } from '../ui/format';
import { useTestSend, type WebhookTestResult } from './queries';

export function TestSend({ configId, isActive }: { configId: string; isActive: boolean }) {
  const test = useTestSend(configId);
  return (
    <>
      <p className="wh-section-text">
        Sends a <code>ping</code> event to this URL now, signed like any delivery, and shows what your endpoint answered.
        {isActive ? '' : ' It works while the webhook is off, to check the endpoint before turning it back on.'} 10 a minute.
      </p>
      <Button onClick={() => test.mutate()} busy={test.isPending}>
        Send test event
      </Button>
      <ErrorNote error={test.error} />
      {test.data ? <TestResult result={test.data} /> : null}
    </>
  );
}

export function TestResult({ result }: { result: WebhookTestResult }) {
  return (
    <section className={`wh-test-result ${result.delivered ? 'wh-test-ok' : 'wh-test-failed'}`} aria-label="Test result" role="status">
      <p className="wh-test-outcome">
        {result.delivered ? <span className="badge badge-success">Delivered</span> : <span className="badge badge-danger">Not delivered</span>}
        {result.error ? <span className="wh-test-error">{result.error}</span> : null}
      </p>
      <dl className="facts">
        <dt>Status code</dt>
        <dd className="mono">{result.statusCode ?? 'none (no response)'}</dd>
        <dt>Latency</dt>
        <dd>{formatCount(result.latencyMs)} ms</dd>
        <dt>Event id</dt>
        <dd className="mono">{result.eventId}</dd>
      </dl>
      {result.responseHeaders && Object.keys(result.responseHeaders).length > 0 ? (
        <details className="wh-headers">
          <summary>Response headers ({Object.keys(result.responseHeaders).length})</summary>
          <dl className="facts mono">
            {Object.entries(result.responseHeaders).map(([name, value]) => (
              <Fragment key={name}>
                <dt>{name}</dt>
                <dd>{value}</dd>
              </Fragment>
            ))}
          </dl>
        </details>
      ) : null}
      {result.responseExcerpt !== null ? (
        <>
          <p className="wh-test-label">Response body{result.responseExcerpt.length >= 500 ? ' (first 500 characters)' : ''}</p>
          <pre className="wh-excerpt" tabIndex={0} aria-label="Response body">
            {result.responseExcerpt === '' ? <span className="muted">(empty)</span> : result.responseExcerpt}
          </pre>
        </>
      ) : result.statusCode !== null ? (
        <p className="muted">The response body is not shown: the endpoint answered from a private address (allowed only in development).</p>
      ) : null}
    </section>
  );
}
