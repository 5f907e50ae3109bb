// concord webhooks listen --forward-to URL, like `stripe listen`: follows the buyer's
// event stream (GET /events/stream, resumed with Last-Event-ID after a disconnection) and POSTs each event
// to a local URL signed exactly as a real delivery is (x-service-signature, and the Standard Webhooks
// webhook-id / webhook-timestamp / webhook-signature) with a local whsec_ secret, printed at start and
// kept in the config file so the receiver keeps working across runs. One line per event, with the local
// answer's status. Nothing is retried: this is for development. The stream is the SDK's
// (client.events.stream); when the service cannot resume after the last event (400 on Last-Event-ID: too
// old, or unknown to it), the listener says so on stderr, with the GET /events?since=… that lists what it
// may have missed, and follows the stream from now on.
import { randomUUID } from 'node:crypto';
import { ConcordStreamResumeError, generateWebhookSecret, signStandardWebhook, signWebhookBody, type StreamedEvent, webhookSecretProblem } from '@concord/sdk';
import { buyerClient } from './account.ts';
import { readConfig, resolveConnection, writeConfig, type GlobalOptions } from './config.ts';
import { CliError, EXIT, interruptedError, interruption, streamUnavailable, usageError } from './errors.ts';
import type { Output } from './output.ts';

export interface ListenOptions extends GlobalOptions {
  forwardTo: string;
  events?: string;
  secret?: string;
  timeout: number;
}

/** A secret `webhooks listen` can sign both headers with: a valid whsec_ one. */
const isStandardSecret = (secret: string) => secret.startsWith('whsec_') && webhookSecretProblem(secret) === null;

/** --secret, else the one kept in the config file, else a new one (kept for next time). */
async function signingSecret(given: string | undefined, output: Output): Promise<string> {
  if (given !== undefined) {
    if (!isStandardSecret(given)) throw usageError('--secret is whsec_ and 24 to 64 bytes in standard base64 (as the dashboard makes them)', 'INVALID_SECRET');
    return given;
  }
  const config = await readConfig();
  if (config.listenSecret && isStandardSecret(config.listenSecret)) return config.listenSecret;
  const secret = generateWebhookSecret();
  try {
    await writeConfig({ ...config, listenSecret: secret });
  } catch (error) {
    output.warn(`could not keep the signing secret in the config file (${error instanceof Error ? error.message : String(error)}): it changes next time`);
  }
  return secret;
}

export async function listen(options: ListenOptions, output: Output, userAgent: string): Promise<void> {
  let target: URL;
  try {
    target = new URL(options.forwardTo);
  } catch {
    throw usageError(`--forward-to is a URL, like http://localhost:4000/webhooks (not ${options.forwardTo})`, 'INVALID_URL');
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw usageError('--forward-to must be an http(s) URL', 'INVALID_URL');
  const only = options.events
    ? new Set(
        options.events
          .split(',')
          .map((type) => type.trim())
          .filter(Boolean),
      )
    : undefined;
  const connection = await resolveConnection(options);
  const secret = await signingSecret(options.secret, output);
  const client = buyerClient(connection, userAgent);

  const controller = interruption();
  let forwarded = 0;

  const forward = async (event: StreamedEvent) => {
    const body = JSON.stringify(event.payload);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': `${userAgent} (webhooks listen)`,
      'x-service-event': event.type,
      'x-service-delivery': `local_${randomUUID()}`,
      'x-service-signature': await signWebhookBody(body, secret),
      ...(await signStandardWebhook(event.id, Date.now(), body, secret)),
    };
    const started = performance.now();
    let status: number | null = null;
    let error: string | null = null;
    // This request's own signal: the timeout, or the end of the listening.
    const request = new AbortController();
    const timer = setTimeout(() => request.abort(new Error(`no answer within ${options.timeout} s`)), options.timeout * 1000);
    const stop = () => request.abort(controller.signal.reason);
    controller.signal.addEventListener('abort', stop, { once: true });
    try {
      const response = await fetch(target, { method: 'POST', headers, body, redirect: 'manual', signal: request.signal });
      status = response.status;
      await response.body?.cancel().catch(() => undefined);
    } catch (cause) {
      if (controller.signal.aborted) return;
      const reason = request.signal.aborted ? request.signal.reason : ((cause as { cause?: unknown }).cause ?? cause);
      const code = (reason as { code?: unknown } | null)?.code;
      error = typeof code === 'string' ? code : reason instanceof Error ? reason.message : String(reason);
    } finally {
      clearTimeout(timer);
      controller.signal.removeEventListener('abort', stop);
    }
    const ms = Math.round(performance.now() - started);
    forwarded += 1;
    output.result(
      {
        event: { id: event.id, type: event.type, taskId: typeof event.payload.taskId === 'string' ? event.payload.taskId : null, createdAt: event.createdAt },
        status,
        ms,
        error,
      },
      `${new Date().toISOString().slice(11, 19)}  ${event.type.padEnd(15)} ${event.id}  → ${status ?? `failed: ${error}`}${status !== null ? ` (${ms} ms)` : ''}`,
    );
  };

  let ready = false;
  /** The last event received: where a refused resumption leaves a gap (GET /events?since=…). */
  let lastReceived: StreamedEvent | undefined;
  try {
    // One stream, and a new one from now on when the service cannot resume after the last event.
    for (let restarted = false; !controller.signal.aborted; restarted = true) {
      const stream = client.events.stream({
        signal: controller.signal,
        onConnect: ({ reconnected }) => {
          if (restarted && !reconnected) {
            output.note('(Connected again: forwarding the events from now on.)');
            return;
          }
          if (reconnected) {
            output.note('(Reconnected: resuming after the last event received.)');
            return;
          }
          if (ready) return;
          ready = true;
          output.result(
            { ready: true, forwardTo: target.toString(), secret },
            `Ready! Forwarding your events from ${connection.baseUrl} to ${target.toString()}\n` +
              `Your local webhook signing secret is ${secret}\n(verify with verifyWebhook from @concord/sdk; Ctrl-C to stop)`,
          );
        },
        onDisconnect: ({ error, delayMs }) => output.note(`(Stream lost: ${error.message}; reconnecting in ${Math.round(delayMs / 1000)} s…)`),
      });
      try {
        for await (const event of stream) {
          lastReceived = event;
          if (only && !only.has(event.type)) continue;
          await forward(event);
        }
      } catch (error) {
        if (!(error instanceof ConcordStreamResumeError)) throw error;
        // Too old or unknown to resume after: say what may be missing, and follow the stream from now on.
        const since = lastReceived ? `?since=${encodeURIComponent(lastReceived.createdAt)}` : '';
        output.warn(
          `the stream cannot resume after event ${error.lastEventId} (${error.message}). ` +
            `Continuing from now on: events written in between were not forwarded (GET /events${since} lists them).`,
        );
      }
    }
  } catch (error) {
    if (streamUnavailable(error))
      throw new CliError(EXIT.API_ERROR, 'STREAM_UNAVAILABLE', `${connection.baseUrl} has no event stream (GET /events/stream): it needs a newer Concord`);
    if (!controller.signal.aborted) throw error;
  } finally {
    controller.abort();
    controller.dispose();
  }
  const events = `${forwarded} event${forwarded === 1 ? '' : 's'}`;
  // A listener runs until its user stops it: Ctrl-C is how it ends, not a failure (exit 0). A SIGTERM
  // comes from something else (a supervisor, a CI job's timeout) and keeps the interrupted exit (143).
  if (controller.received === 'SIGINT') output.result({ stopped: true, forwarded }, `Stopped: forwarded ${events}.`);
  else if (controller.received) throw interruptedError(controller.received, `Stopped listening after ${events}`, { forwarded });
}
