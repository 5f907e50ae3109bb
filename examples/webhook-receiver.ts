// A webhook receiver to try Concord's webhooks locally. It checks every request's signature over the exact
// body with the SDK's verifyWebhook (401 when it does not verify), counts each delivery once (a retry
// carries the same x-service-delivery), prints one line per event and answers 204. The `ping` of a test
// send (POST /webhooks/configs/:id/test, from the dashboard or `concord webhooks test`) is printed as a
// ping and is not a task event: it never counts towards --count.
//   CONCORD_WEBHOOK_SECRET=<the webhook configuration's secret> npx tsx examples/webhook-receiver.ts [--count N] [--timeout S]
// In the background, start it as `node --import tsx examples/webhook-receiver.ts … &`: then `$!` is the
// receiver itself (with npx, it is npx, and killing npx leaves the receiver running).
// It listens on RECEIVER_PORT (4000): point a webhook configuration at http://localhost:4000/concord (outside
// development the service refuses private addresses such as this one). With --count N it exits 0 once N
// task events (task.completed or task.failed) have arrived, or 1 when they have not within S seconds
// (--timeout, 900 by default); without --count it runs until stopped (Ctrl-C).
import http from 'node:http';
import { ConcordWebhookVerificationError, verifyWebhook } from '../sdk/src/index.ts';

const secret = process.env.CONCORD_WEBHOOK_SECRET;
if (!secret) throw new Error('Set CONCORD_WEBHOOK_SECRET to the secret of your webhook configuration');
const port = Number(process.env.RECEIVER_PORT ?? 4000);
const flag = (name: string): number | undefined => {
  const at = process.argv.indexOf(name);
  if (at < 0) return undefined;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} takes a whole number above 0`);
  return value;
};
const expected = flag('--count');
const timeoutSeconds = flag('--timeout') ?? 900;

const seen = new Set<string>();
let taskEvents = 0;

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => void receive(req, res, Buffer.concat(chunks)));
});

async function receive(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): Promise<void> {
  let event;
  try {
    event = await verifyWebhook(body, req.headers, secret ?? '');
  } catch (error) {
    if (!(error instanceof ConcordWebhookVerificationError)) throw error;
    console.log(`refused a request: ${error.code} (${error.message})`);
    res.writeHead(401).end();
    return;
  }
  res.writeHead(204).end(); // answer at once; slow work belongs after the answer
  const delivery = String(req.headers['x-service-delivery'] ?? '');
  if (seen.has(delivery)) return;
  seen.add(delivery);
  switch (event.event) {
    case 'ping': // a test send (POST /webhooks/configs/:id/test): not a task event, so it does not count
      console.log(`ping from webhook ${event.webhookId}, sent at ${event.sentAt} (signature verified)`);
      return;
    case 'budget.low':
      console.log(`budget.low: balance ${event.creditBalance} cents (signature verified)`);
      return;
    case 'task.completed':
      console.log(`task.completed ${event.taskId}: "${event.result}", confidence ${event.confidence}, ${event.totalResponses} answers (signature verified)`);
      break;
    case 'task.failed':
      console.log(`task.failed ${event.taskId}: ${event.reason} after ${event.totalResponses} answers (signature verified)`);
      break;
    default: // an event this receiver does not know yet: acknowledged, not counted
      console.log(`${(event as { event: string }).event} (signature verified)`);
      return;
  }
  taskEvents += 1;
  if (expected !== undefined && taskEvents >= expected) {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
}

server.listen(port, () => console.log(`Listening on http://localhost:${port}/concord`));
if (expected !== undefined) {
  setTimeout(() => {
    console.log(`Timed out: ${taskEvents} of ${expected} task events in ${timeoutSeconds} s`);
    process.exit(1);
  }, timeoutSeconds * 1_000).unref();
}
