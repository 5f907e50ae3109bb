// A minimal buyer script: upload a CSV of tasks, wait for the results through a webhook receiver, then
// download them as an OpenAI fine-tuning file.
//   CONCORD_URL=http://localhost:3000 CONCORD_EMAIL=you@example.com CONCORD_PASSWORD=… \
//     npx tsx examples/buyer-script.ts tasks.csv results.jsonl
// The receiver listens on RECEIVER_PORT (4000) and must be reachable by the service at RECEIVER_URL
// (http://localhost:4000/concord; outside development the service refuses private addresses).
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import { BuyerClient, verifyWebhookSignature } from '../sdk/src/index.ts';

const [csvPath = 'tasks.csv', outPath = 'results.jsonl'] = process.argv.slice(2);
const options = { baseUrl: process.env.CONCORD_URL ?? 'http://localhost:3000' };
const email = process.env.CONCORD_EMAIL;
const password = process.env.CONCORD_PASSWORD;
if (!email || !password) throw new Error('Set CONCORD_EMAIL and CONCORD_PASSWORD (a buyer account with credit)');
const port = Number(process.env.RECEIVER_PORT ?? 4000);
const receiverUrl = process.env.RECEIVER_URL ?? `http://localhost:${port}/concord`;

const buyer = await BuyerClient.login(options, { email, password });
const secret = randomBytes(24).toString('hex');
const waiting = new Set<string>();
let allDone: () => void = () => undefined;
const done = new Promise<void>((resolve) => (allDone = resolve));

// The receiver: verify the signature over the exact body, then note the decided task.
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', async () => {
    const body = Buffer.concat(chunks).toString('utf8');
    if (!(await verifyWebhookSignature(body, req.headers['x-service-signature'] as string | undefined, secret))) {
      res.writeHead(401).end();
      return;
    }
    res.writeHead(204).end();
    const event = JSON.parse(body) as { event: string; taskId?: string; result?: string; reason?: string };
    console.log(`${event.event}: ${event.taskId} ${event.result ?? event.reason ?? ''}`);
    if (event.taskId && waiting.delete(event.taskId) && waiting.size === 0) allDone();
  });
});
await new Promise<void>((resolve) => receiver.listen(port, resolve));
const webhook = await buyer.createWebhook({ url: receiverUrl, events: ['task.completed', 'task.failed'], secret });

try {
  const upload = await buyer.uploadCsv(await readFile(csvPath, 'utf8'), csvPath);
  console.log(`Created ${upload.created} tasks${upload.errors.length ? `, ${upload.errors.length} rows refused` : ''}.`);
  for (const task of upload.tasks) waiting.add(task.taskId);
  if (waiting.size > 0) {
    console.log('Waiting for annotators…');
    await done;
  }
  await buyer.exportToFile({ format: 'openai' }, outPath);
  console.log(`Wrote ${outPath}.`);
} finally {
  await buyer.deleteWebhook(webhook.id);
  receiver.close();
}
