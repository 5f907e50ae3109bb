import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createIsolatedTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createAdmin, createDeveloper, PASSWORD, uniqueEmail } from '../helpers/factories.ts';
import { freePort } from '../helpers/ports.ts';

interface Received {
  to: string[];
  subject: string;
  text: string;
}

/** Enough quoted-printable decoding for plain-text test mails (soft breaks and =XX escapes). */
function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

async function startSmtp(port = 0): Promise<{ port: number; mails: Received[]; close: () => Promise<void> }> {
  const mails: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: /^Subject: (.*)$/m.exec(head)?.[1]?.trim() ?? '',
          text: decodeQuotedPrintable(rest.join('\n\n')),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const address = server.server.address() as AddressInfo;
  return { port: address.port, mails, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

// Each test on a database of its own: the mail worker sends every pending mail it finds.
let ctx: TestContext | undefined;
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

async function register(app: TestContext['app'], email: string) {
  const res = await request(app).post('/api/v1/auth/register').send({ email, password: PASSWORD, companyName: 'Mail Co' });
  expect(res.status).toBe(201);
}

describe('e-mail by SMTP', () => {
  it('sends the welcome and the developer invite mails', async () => {
    const smtp = await startSmtp();
    try {
      ctx = await createIsolatedTestContext({ env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'Concord <mail@concord.test>' } });
      const buyerEmail = uniqueEmail('welcome');
      await register(ctx.app, buyerEmail);
      const admin = await createAdmin(ctx);
      const devEmail = uniqueEmail('invite');
      await request(ctx.app).post('/api/v1/admin/developers').set(bearer(admin.token)).send({ email: devEmail, appName: 'Mail App', appUrl: 'https://m.test' });
      await ctx.services.mailWorker.drain();
      const welcome = smtp.mails.find((m) => m.to.includes(buyerEmail));
      const invite = smtp.mails.find((m) => m.to.includes(devEmail));
      expect(welcome?.subject).toBe('Welcome to Concord');
      expect(welcome?.text).toContain('Mail Co');
      expect(invite?.subject).toBe('Your Concord developer account');
      expect(invite?.text).toMatch(/"token": "[A-Za-z0-9_-]{43}"/);
      const rows = await ctx.prisma.mailOutbox.findMany({ where: { toAddress: { in: [buyerEmail, devEmail] } } });
      expect(rows.map((r) => r.status)).toEqual(['SENT', 'SENT']);
    } finally {
      await smtp.close();
    }
  });

  it('keeps retrying while SMTP is down, and the mail arrives once it is back', async () => {
    const port = await freePort();
    let offsetMs = 0;
    ctx = await createIsolatedTestContext({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` }, clock: { now: () => new Date(Date.now() + offsetMs) } });
    const email = uniqueEmail('later');
    await register(ctx.app, email);
    await ctx.services.mailWorker.drain();
    const afterFirst = await ctx.prisma.mailOutbox.findFirstOrThrow({ where: { toAddress: email } });
    expect(afterFirst).toMatchObject({ status: 'PENDING', attempts: 1, lastError: expect.stringMatching(/ECONNREFUSED|connect/i) });
    offsetMs = 6_000;
    await ctx.services.mailWorker.drain();
    expect((await ctx.prisma.mailOutbox.findFirstOrThrow({ where: { toAddress: email } })).attempts).toBe(2);

    const smtp = await startSmtp(port);
    try {
      offsetMs = 60_000;
      await ctx.services.mailWorker.drain();
      expect(smtp.mails.map((m) => m.to)).toContainEqual([email]);
      expect((await ctx.prisma.mailOutbox.findFirstOrThrow({ where: { toAddress: email } })).status).toBe('SENT');
    } finally {
      await smtp.close();
    }
  });

  it('without SMTP_URL, logs the mail (not its body) and keeps it; a request never fails because of mail', async () => {
    const lines: string[] = [];
    ctx = await createIsolatedTestContext({ env: { LOG_LEVEL: 'info' }, logDestination: { write: (line: string) => lines.push(line) } });
    const email = uniqueEmail('kept');
    await register(ctx.app, email);
    await ctx.services.mailWorker.drain();
    const row = await ctx.prisma.mailOutbox.findFirstOrThrow({ where: { toAddress: email } });
    expect(row).toMatchObject({ status: 'PENDING', attempts: 0 });
    const kept = lines.find((line) => line.includes('"event":"mail.kept"') && line.includes(email));
    expect(kept).toBeDefined();
    expect(kept).not.toContain('Top up');
  });

  it('in development without SMTP_URL, the log carries the mail itself, so the developer invite token can be read', async () => {
    const lines: string[] = [];
    const dev = await createIsolatedTestContext({
      env: { LOG_LEVEL: 'info', NODE_ENV: 'development' },
      logDestination: { write: (line: string) => lines.push(line) },
    });
    try {
      const admin = await createAdmin(dev);
      const developer = await createDeveloper(dev, admin.token);
      await dev.services.mailWorker.drain();
      const kept = lines
        .map((line) => JSON.parse(line) as { event?: string; to?: string; subject?: string; links?: string[]; msg: string })
        .find((line) => line.event === 'mail.kept' && line.to === developer.email);
      // The subject and the invite link lead the message; the links are also a field of their own.
      expect(kept?.msg.split('\n')[0]).toMatch(
        new RegExp(`mail "${kept?.subject ?? '?'}" to ${developer.email} kept in the outbox\\. Links: http://concord\\.test/developer/setup#token=`),
      );
      expect(kept?.links).toEqual([expect.stringMatching(/^http:\/\/concord\.test\/developer\/setup#token=[A-Za-z0-9_-]+$/)]);
      expect(kept?.msg).toContain('POST /api/v1/dev/setup-password');
      // The dashboard's set-password page, with the token in the fragment (never sent to a server).
      expect(kept?.msg).toMatch(/http:\/\/concord\.test\/developer\/setup#token=[A-Za-z0-9_-]+/);
      const token = /"token": "([^"]+)"/.exec(kept?.msg ?? '')?.[1];
      const setup = await request(dev.app).post('/api/v1/dev/setup-password').send({ token, password: 'a-new-password-1' });
      expect(setup.status).toBe(204);
    } finally {
      await dev.close();
    }
  });
});
