// A minimal buyer script: upload a CSV of tasks, wait for the results through a webhook receiver, then
// download them as an OpenAI fine-tuning file. It signs in with a buyer API key (CONCORD_API_KEY, the
// way a server should) or else with e-mail and password.
//   CONCORD_URL=http://localhost:3000 CONCORD_EMAIL=you@example.com CONCORD_PASSWORD=… \
//     npx tsx examples/buyer-script.ts examples/tasks.csv results.jsonl
// The receiver listens on RECEIVER_PORT (4000) and must be reachable by the service at RECEIVER_URL
// (http://localhost:4000/concord; outside development the service refuses private addresses).
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import { BuyerClient, ConcordWebhookVerificationError, generateWebhookSecret, verifyWebhook } from '../sdk/src/index.ts';

const [csvPath = 'examples/tasks.csv', outPath = 'results.jsonl'] = process.argv.slice(2);
const options = { baseUrl: process.env.CONCORD_URL ?? 'http://localhost:3000' };
const email = process.env.CONCORD_EMAIL;
const password = process.env.CONCORD_PASSWORD;
const apiKey = process.env.CONCORD_API_KEY;
if (!apiKey && (!email || !password)) throw new Error('Set CONCORD_API_KEY, or CONCORD_EMAIL and CONCORD_PASSWORD (a buyer account with credit)');
const port = Number(process.env.RECEIVER_PORT ?? 4000);
const receiverUrl = process.env.RECEIVER_URL ?? `http://localhost:${port}/concord`;

const buyer = apiKey ? new BuyerClient({ ...options, apiKey }) : (await BuyerClient.login(options, { email: email ?? '', password: password ?? '' })).client;
const secret = generateWebhookSecret(); // whsec_…: deliveries also carry Standard Webhooks signatures
const waiting = new Set<string>();
let allDone: () => void = () => undefined;
const done = new Promise<void>((resolve) => (allDone = resolve));

// The receiver: verify the signature over the exact body, then note the decided task.
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', async () => {
    let event;
    try {
      event = await verifyWebhook(Buffer.concat(chunks), req.headers, secret);
    } catch (error) {
      if (!(error instanceof ConcordWebhookVerificationError)) throw error;
      res.writeHead(401).end();
      return;
    }
    res.writeHead(204).end();
    if (event.event !== 'task.completed' && event.event !== 'task.failed') return; // budget.low, a test send's ping
    console.log(`${event.event}: ${event.taskId} ${event.event === 'task.completed' ? event.result : event.reason}`);
    if (waiting.delete(event.taskId) && waiting.size === 0) allDone();
  });
});
await new Promise<void>((resolve) => receiver.listen(port, resolve));
const webhook = await buyer.webhooks.create({ url: receiverUrl, events: ['task.completed', 'task.failed'], secret });

try {
  const upload = await buyer.tasks.uploadCsv(await readFile(csvPath, 'utf8'), { filename: csvPath.split('/').at(-1) });
  console.log(`Created ${upload.created} tasks${upload.errors.length ? `, ${upload.errors.length} rows refused` : ''}.`);
  for (const task of upload.tasks) waiting.add(task.taskId);
  if (waiting.size > 0) {
    console.log('Waiting for annotators…');
    await done;
  }
  await buyer.exports.toFile({ format: 'openai' }, outPath);
  console.log(`Wrote ${outPath}.`);
} finally {
  await buyer.webhooks.delete(webhook.id);
  receiver.close();
}
