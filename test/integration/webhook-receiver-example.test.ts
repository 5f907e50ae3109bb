// examples/webhook-receiver.ts as the quickstart runs it (`node --import tsx …`, in its own process): the
// ping of a real test send is verified and printed as a ping, and it does not count towards --count (only
// task events do), so `--count 1` still waits for the task event that follows it.
import { spawn } from 'node:child_process';
import type { Server } from 'node:http';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateWebhookSecret, signStandardWebhook, signWebhookBody } from '../../sdk/src/index.ts';
import { createIsolatedTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createBuyer } from '../helpers/factories.ts';
import { freePort } from '../helpers/ports.ts';
import { waitFor } from '../helpers/server-process.ts';

const root = path.resolve(import.meta.dirname, '../..');
let ctx: TestContext;
let server: Server;

beforeAll(async () => {
  ctx = await createIsolatedTestContext();
  server = ctx.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await ctx.close();
});

describe('examples/webhook-receiver.ts', () => {
  it("prints a test send's ping as a ping that counts for nothing; --count 1 ends at the task event after it", async () => {
    const port = await freePort();
    const secret = generateWebhookSecret();
    const env: NodeJS.ProcessEnv = { ...process.env, CONCORD_WEBHOOK_SECRET: secret, RECEIVER_PORT: String(port) };
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'examples/webhook-receiver.ts', '--count', '1', '--timeout', '60'], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await waitFor(() => stdout.includes('Listening on'), 30_000, `the receiver to listen (${stderr})`);
      const buyer = await createBuyer(ctx);
      const config = await request(server)
        .post('/api/v1/webhooks/configs')
        .set(bearer(buyer.token))
        .send({ url: `http://127.0.0.1:${port}/concord`, events: ['task.completed', 'task.failed'], secret });
      expect(config.status).toBe(201);
      const sent = await request(server).post(`/api/v1/webhooks/configs/${config.body.id}/test`).set(bearer(buyer.token)).send({});
      expect(sent.body).toMatchObject({ delivered: true, statusCode: 204 });
      await waitFor(() => stdout.split('\n').length >= 3, 10_000, 'the ping line');

      // A task event, signed as the service signs one: with a count of 1, the receiver is done after it.
      const body = JSON.stringify({
        event: 'task.completed',
        taskId: 'cm3q7w1x90004lk08a1b2c3d4',
        type: 'BINARY_CHOICE',
        result: 'yes',
        confidence: 0.93,
        totalResponses: 3,
        costCents: 20,
        validatedAt: new Date().toISOString(),
      });
      const response = await fetch(`http://127.0.0.1:${port}/concord`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-service-event': 'task.completed',
          'x-service-delivery': 'cm3q7w1xb0009lk08q4r5s6t7',
          'x-service-signature': await signWebhookBody(body, secret),
          ...(await signStandardWebhook('evt_cm3q7w4c50008lk08u7v8w9x0', Date.now(), body, secret)),
        },
        body,
      });
      expect(response.status).toBe(204);
      expect(await exited).toBe(0);
      const ping = await request(server).get(`/api/v1/events/${sent.body.eventId}`).set(bearer(buyer.token));
      expect(stdout.trim().split('\n')).toEqual([
        `Listening on http://localhost:${port}/concord`,
        `ping from webhook ${config.body.id}, sent at ${ping.body.payload.sentAt} (signature verified)`,
        'task.completed cm3q7w1x90004lk08a1b2c3d4: "yes", confidence 0.93, 3 answers (signature verified)',
      ]);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 60_000);
});
