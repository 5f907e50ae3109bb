// GET /events/stream in one server process: every open stream of the process, fed by one poller.
//
// Each buyer's events carry a number given after they commit (events.seq; prisma/functions/
// number_events.sql, run by the settlement-effects applier before each read of the poller): when event n
// is visible, so is every event before it, and an event that commits late never gets a number below one
// already read. So "the buyer's events after number n" is a complete, gap-free
// answer at any moment, and a stream is only a number: its last event's.
//
// One poller per process reads, every EVENT_STREAM_POLL_MS while the process holds a stream, each
// streamed buyer's events after the last number it read, for all of them in one statement; the frames
// are encoded once per event and written to every stream of that buyer. It polls rather than LISTENs
// because a NOTIFY in the outbox's transactions serialises every notifying commit of the database
// cluster on one lock held across its WAL flush (bench/webhooks/notify-cost.ts: about 4 times fewer
// commits per second with it, docs/events.md), and the answer path commits one event per decision.
// Several processes on one database each poll: no process needs to hear about another's writes.
//
// A stream that is behind the poller (it resumed from an older event, or its client read slowly) is
// brought up from the last events the poller kept, or else by its own reads of the events table, page
// by page, always in number order; a write the socket cannot take is awaited (drain) before the next,
// so a slow client holds at most one page of memory, and one that stops reading for STALL_MS is closed.
import type { Response } from 'express';
import type { UnitOfWork } from '../../db/database.ts';
import type { EventsRawRepository, StreamedEventRecord } from './events.repository.ts';
import { AppError, ForbiddenError, UnauthorizedError } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { BuyerPrincipal } from '../../lib/endpoint.ts';
import type { AuthService } from '../auth/auth.service.ts';
import { SSE_CONTENT_TYPE, sseComment, sseEvent, sseRetry, type Permission } from '@concord/contract';
import { presentStreamedEvent } from './events.presenter.ts';

/** The repositories used here: a slice of the unit of work's registries (src/repositories.ts). */
type RawRepos = { events: EventsRawRepository };
type Db = UnitOfWork<unknown, RawRepos>;

export interface EventStreamSettings {
  /** How often the poller reads new events while the process holds a stream. */
  pollMs: number;
  /** A `: ping` comment this often keeps proxies from closing an idle stream; credentials are checked again as often. */
  heartbeatMs: number;
  /** Open streams per buyer in this process. */
  maxPerBuyer: number;
  /** Open streams per client address in this process (one address can register many buyers). */
  maxPerAddress: number;
  /** Open streams in this process. */
  max: number;
}

/** Whether a stream's credential still stands for its buyer (a revoked key, a changed password or an expired token does not). */
export type CredentialCheck = (credential: string, buyerId: string) => Promise<boolean>;

/**
 * The check of a buyer's JWT or API key, as on every request: still valid, still acting for that
 * organisation (a person still a member there) and still allowed to read its events.
 */
export function buyerCredentialCheck(auth: Pick<AuthService, 'resolvePrincipal'>): CredentialCheck {
  return async (credential, buyerId) => {
    try {
      const principal = await auth.resolvePrincipal(credential, buyerId);
      if (principal.kind !== 'user' || principal.role !== 'BUYER') return false;
      const buyer = principal as BuyerPrincipal;
      return buyer.buyerId === buyerId && buyer.permissions.includes(STREAM_PERMISSION);
    } catch (error) {
      if (error instanceof UnauthorizedError || error instanceof ForbiddenError) return false;
      throw error;
    }
  };
}

/** What reading the stream needs (the route's permission), checked again with the credential. */
export const STREAM_PERMISSION: Permission = 'tasks:read';

/** Events read per buyer by one statement: more waiting means another read at once. */
const READ_LIMIT = 500;
/** The last events read per buyer, kept so streams a little behind need no read of their own. */
const KEPT_EVENTS = 1_000;
/** A client that takes no bytes for this long is disconnected (it reconnects with its Last-Event-ID). */
const STALL_MS = 60_000;
/**
 * Events are written to a stream only under a credential checked this recently: a key revoked (or a
 * password changed) in any process gets no event after it, not only an end at the next heartbeat.
 */
const CREDENTIAL_FRESH_MS = 1_000;
/** What an EventSource waits before reconnecting. */
const RECONNECT_MS = 3_000;
/** What a client refused for the process's cap is told to wait (Retry-After). */
const BUSY_RETRY_AFTER_S = 5;

interface Frame {
  seq: number;
  bytes: Buffer;
}

interface Stream {
  buyerId: string;
  /** The client's address (req.ip, behind TRUST_PROXY's proxies). */
  address: string;
  credential: string;
  res: Response;
  /** The number of the last event written to it. */
  cursor: number;
  pumping: boolean;
  draining: boolean;
  closed: boolean;
  /** When its credential was last found standing (Date.now()). */
  checkedAt: number;
}

interface Channel {
  buyerId: string;
  /** Every event of the buyer numbered up to this has been read by the poller (or was before the channel). */
  latest: number;
  /** The last events read, in number order: every event numbered in (keptFrom, latest] is among them. */
  kept: Frame[];
  keptFrom: number;
  streams: Set<Stream>;
}

/** The buyer's cap: contract §0's per-account cap (LIMIT_EXCEEDED); a stream must close before another opens. */
export class TooManyStreamsError extends AppError {
  constructor(max: number) {
    super(400, 'LIMIT_EXCEEDED', `A buyer may hold at most ${max} open event streams per server process; close one first`, { maxPerBuyer: max });
  }
}

/** The address's cap: many buyers from one address are one client's streams (LIMIT_EXCEEDED as well). */
export class TooManyAddressStreamsError extends AppError {
  constructor(max: number) {
    super(400, 'LIMIT_EXCEEDED', `One address may hold at most ${max} open event streams per server process; close one first`, { maxPerAddress: max });
  }
}

/** The process's cap: another process may have room, or this one a little later. */
export class StreamsBusyError extends AppError {
  readonly retryAfterSeconds = BUSY_RETRY_AFTER_S;
  constructor() {
    super(503, 'SERVER_BUSY', 'This server process holds as many event streams as it may; retry after the time in the Retry-After header');
  }
}

const STREAM_HEADERS = {
  'content-type': SSE_CONTENT_TYPE,
  // Neither caches nor proxies may keep, transform or buffer it (X-Accel-Buffering: nginx).
  'cache-control': 'no-cache, no-store, no-transform',
  'x-accel-buffering': 'no',
};

const frameOf = (event: StreamedEventRecord): Frame => ({
  seq: event.seq,
  bytes: Buffer.from(sseEvent(event.id, event.type, JSON.stringify(presentStreamedEvent(event)))),
});

export class EventStreamHub {
  private readonly channels = new Map<string, Channel>();
  private size = 0;
  /** Open streams per client address. */
  private readonly perAddress = new Map<string, number>();
  /** Set while the poller's next read is waiting for its time (not while a read runs). */
  private pollTimer: NodeJS.Timeout | undefined;
  /** Whether the poller runs: a read is waiting for its time or running. */
  private pollerRunning = false;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private polling: Promise<void> = Promise.resolve();
  private checking = false;
  /** The last verdict on each (buyer, credential), shared by its streams for CREDENTIAL_FRESH_MS. */
  private readonly verdicts = new Map<string, { at: number; verdict: Promise<boolean> }>();
  private stopped = false;

  constructor(
    private readonly db: Db,
    /**
     * Numbers new events before each read: the stream sends numbered events only (the settlement applier,
     * named by what the stream needs of it: settlement writes events, so events does not import it).
     */
    private readonly effects: { numbered(): Promise<void> },
    private readonly settings: EventStreamSettings,
    private readonly credentialStands: CredentialCheck,
    private readonly logger: Logger,
  ) {}

  /** Open streams, the buyers they belong to, and whether the poller runs (only while there are streams), in this process. */
  stats(): { streams: number; buyers: number; polling: boolean } {
    return { streams: this.size, buyers: this.channels.size, polling: this.pollerRunning };
  }

  /**
   * Starts a stream of the buyer's events numbered after `after` (its Last-Event-ID's number), or of
   * those committed from now on. Refuses (before anything is written) past the process's caps.
   */
  async open(request: { buyerId: string; credential: string; address: string; after?: number }, res: Response): Promise<void> {
    if (this.stopped) throw new StreamsBusyError();
    // The hot path's raw-SQL pool: the reads are plain statements.
    const start = request.after ?? (await this.db.rawRepos.events.lastNumber(request.buyerId));
    // A buyer's, then an address's own caps come before the process's: whoever holds many streams is
    // refused at its own limit (400) before the process is full for everyone (503).
    const existing = this.channels.get(request.buyerId);
    if (existing && existing.streams.size >= this.settings.maxPerBuyer) throw new TooManyStreamsError(this.settings.maxPerBuyer);
    if ((this.perAddress.get(request.address) ?? 0) >= this.settings.maxPerAddress) throw new TooManyAddressStreamsError(this.settings.maxPerAddress);
    if (this.stopped || this.size >= this.settings.max) throw new StreamsBusyError();
    // The client may have gone while the number was read: its 'close' has passed, so it is not started.
    if (!res.socket || res.socket.destroyed) {
      res.destroy();
      return;
    }
    // HEAD (which Express routes to GET) gets the headers and nothing to wait for.
    if (res.req.method === 'HEAD') {
      res.writeHead(200, STREAM_HEADERS).end();
      return;
    }
    // An event numbered `start` has committed, and so has every one before it: a channel may begin there.
    const channel = existing ?? this.createChannel(request.buyerId, start);
    const stream: Stream = {
      buyerId: request.buyerId,
      address: request.address,
      credential: request.credential,
      res,
      cursor: start,
      pumping: false,
      draining: false,
      closed: false,
      checkedAt: Date.now(),
    };
    channel.streams.add(stream);
    this.size += 1;
    this.perAddress.set(request.address, (this.perAddress.get(request.address) ?? 0) + 1);
    res.on('close', () => this.remove(stream));

    res.socket?.setNoDelay(true);
    res.socket?.setKeepAlive(true);
    res.writeHead(200, STREAM_HEADERS);
    res.write(sseRetry(RECONNECT_MS) + sseComment('connected'));
    this.startTimers();
    void this.pump(stream);
  }

  /** Ends every stream (their clients reconnect to another process) and stops polling: server shutdown. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.pollTimer);
    clearInterval(this.heartbeatTimer);
    for (const channel of this.channels.values()) for (const stream of channel.streams) this.end(stream);
    await this.polling;
  }

  private createChannel(buyerId: string, latest: number): Channel {
    const channel: Channel = { buyerId, latest, kept: [], keptFrom: latest, streams: new Set() };
    this.channels.set(buyerId, channel);
    return channel;
  }

  private remove(stream: Stream): void {
    if (stream.closed) return;
    stream.closed = true;
    const channel = this.channels.get(stream.buyerId);
    if (!channel?.streams.delete(stream)) return;
    this.size -= 1;
    const fromAddress = (this.perAddress.get(stream.address) ?? 1) - 1;
    if (fromAddress > 0) this.perAddress.set(stream.address, fromAddress);
    else this.perAddress.delete(stream.address);
    if (channel.streams.size === 0) this.channels.delete(stream.buyerId);
    if (this.channels.size === 0) {
      // A read in progress ends the poller itself when it finds no channel left.
      if (this.pollTimer) {
        clearTimeout(this.pollTimer);
        this.pollTimer = undefined;
        this.pollerRunning = false;
      }
      clearInterval(this.heartbeatTimer);
      this.heartbeatTimer = undefined;
    }
  }

  private end(stream: Stream): void {
    this.remove(stream);
    if (!stream.res.writableEnded) stream.res.end();
  }

  private startTimers(): void {
    if (this.stopped) return;
    if (!this.heartbeatTimer) {
      this.heartbeatTimer = setInterval(() => void this.heartbeat(), this.settings.heartbeatMs);
      this.heartbeatTimer.unref();
    }
    if (!this.pollerRunning) {
      this.pollerRunning = true;
      this.schedulePoll(this.settings.pollMs);
    }
  }

  private schedulePoll(delayMs: number): void {
    if (this.stopped || this.channels.size === 0) {
      this.pollerRunning = false;
      return;
    }
    this.pollTimer = setTimeout(() => {
      this.pollTimer = undefined;
      this.polling = this.poll().then(
        (more) => this.schedulePoll(more ? 0 : this.settings.pollMs),
        (error: unknown) => {
          this.logger.error({ event: 'events.stream.poll_failed', err: error }, 'reading new events for the open streams failed');
          this.schedulePoll(this.settings.pollMs);
        },
      );
    }, delayMs);
    this.pollTimer.unref();
  }

  /** One read for every streamed buyer; returns whether some buyer has more waiting. */
  private async poll(): Promise<boolean> {
    await this.effects.numbered();
    const positions = [...this.channels.values()].map((channel) => ({ buyerId: channel.buyerId, after: channel.latest }));
    const events = await this.db.rawRepos.events.numberedAfter(positions, READ_LIMIT);
    let more = false;
    for (let i = 0; i < events.length;) {
      const buyerId = (events[i] as StreamedEventRecord).buyerId;
      let j = i;
      while (j < events.length && (events[j] as StreamedEventRecord).buyerId === buyerId) j += 1;
      if (j - i === READ_LIMIT) more = true;
      this.deliver(buyerId, events.slice(i, j));
      i = j;
    }
    return more;
  }

  private deliver(buyerId: string, events: StreamedEventRecord[]): void {
    // The channel may have closed (and even opened again, further on) while the read ran.
    const channel = this.channels.get(buyerId);
    if (!channel) return;
    const fresh = events.filter((event) => event.seq > channel.latest).map(frameOf);
    const last = fresh.at(-1);
    if (!last) return;
    channel.kept.push(...fresh);
    if (channel.kept.length > KEPT_EVENTS) {
      const dropped = channel.kept.splice(0, channel.kept.length - KEPT_EVENTS);
      channel.keptFrom = (dropped.at(-1) as Frame).seq;
    }
    channel.latest = last.seq;
    for (const stream of channel.streams) void this.pump(stream);
  }

  /**
   * Writes the stream's missing events in number order until it has them all: from the kept events
   * when they reach back far enough, else a page read for it alone. One pump per stream at a time.
   */
  private async pump(stream: Stream): Promise<void> {
    if (stream.pumping) return;
    stream.pumping = true;
    try {
      for (;;) {
        const channel = this.channels.get(stream.buyerId);
        if (stream.closed || !channel || stream.cursor >= channel.latest) return;
        const frames = stream.cursor >= channel.keptFrom ? keptAfter(channel.kept, stream.cursor) : await this.readAfter(stream);
        if (stream.closed) return;
        const last = frames.at(-1);
        // Nothing to read though the buyer's number is further on: those events were deleted (their buyer was).
        if (!last) {
          stream.cursor = channel.latest;
          continue;
        }
        if (Date.now() - stream.checkedAt > CREDENTIAL_FRESH_MS && !(await this.credentialStandsFor(stream))) {
          this.endRevoked(stream);
          return;
        }
        if (stream.closed) return;
        stream.cursor = last.seq;
        if (!stream.res.write(frames.length === 1 ? (last.bytes as Buffer) : Buffer.concat(frames.map((frame) => frame.bytes)))) await this.drained(stream);
      }
    } catch (error) {
      this.logger.error(
        { event: 'events.stream.write_failed', err: error, buyerId: stream.buyerId },
        'an event stream failed; it is closed (its client resumes)',
      );
      this.end(stream);
    } finally {
      stream.pumping = false;
    }
  }

  private async readAfter(stream: Stream): Promise<Frame[]> {
    const events = await this.db.rawRepos.events.numberedAfter([{ buyerId: stream.buyerId, after: stream.cursor }], READ_LIMIT);
    return events.map(frameOf);
  }

  /** Resolves when the socket takes more bytes, or the stream closes; a client stalled for STALL_MS is disconnected. */
  private drained(stream: Stream): Promise<void> {
    stream.draining = true;
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        stream.res.off('drain', done);
        stream.res.off('close', done);
        stream.draining = false;
        resolve();
      };
      const timer = setTimeout(() => {
        this.logger.warn({ event: 'events.stream.stalled', buyerId: stream.buyerId }, 'an event stream took no bytes for a minute; it is closed');
        stream.res.destroy();
        done();
      }, STALL_MS);
      timer.unref();
      stream.res.once('drain', done);
      stream.res.once('close', done);
    });
  }

  /** A comment line on every stream that is not waiting for its client; then every credential checked again. */
  private async heartbeat(): Promise<void> {
    const streams = [...this.channels.values()].flatMap((channel) => [...channel.streams]);
    const ping = sseComment('ping');
    for (const stream of streams) if (!stream.draining && !stream.closed) stream.res.write(ping);
    if (this.checking) return;
    this.checking = true;
    try {
      await this.checkCredentials(streams);
    } finally {
      this.checking = false;
    }
  }

  /** A revoked API key, a changed password, a disabled account or an expired token ends its streams. */
  private async checkCredentials(streams: Stream[]): Promise<void> {
    const now = Date.now();
    for (const [key, { at }] of this.verdicts) if (now - at > CREDENTIAL_FRESH_MS) this.verdicts.delete(key);
    for (const stream of streams) if (!(await this.credentialStandsFor(stream))) this.endRevoked(stream);
  }

  /** The stream's credential checked again, or a verdict on it at most CREDENTIAL_FRESH_MS old. */
  private async credentialStandsFor(stream: Stream): Promise<boolean> {
    const key = `${stream.buyerId} ${stream.credential}`;
    const now = Date.now();
    let cached = this.verdicts.get(key);
    if (!cached || now - cached.at > CREDENTIAL_FRESH_MS) {
      // A database hiccup is no verdict: the stream stays, and is asked about again next time.
      const verdict = this.credentialStands(stream.credential, stream.buyerId).catch((error: unknown) => {
        this.logger.warn({ event: 'events.stream.credential_check_failed', err: error }, 'could not check an event stream credential');
        return true;
      });
      cached = { at: now, verdict };
      this.verdicts.set(key, cached);
    }
    const stands = await cached.verdict;
    if (stands) stream.checkedAt = cached.at;
    return stands;
  }

  private endRevoked(stream: Stream): void {
    if (stream.closed) return;
    this.logger.info({ event: 'events.stream.credential_ended', buyerId: stream.buyerId }, 'an event stream credential no longer stands; the stream is closed');
    this.end(stream);
  }
}

/** The kept frames numbered after `cursor` (they are in number order). */
function keptAfter(kept: Frame[], cursor: number): Frame[] {
  let low = 0;
  let high = kept.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((kept[middle] as Frame).seq <= cursor) low = middle + 1;
    else high = middle;
  }
  return kept.slice(low);
}
