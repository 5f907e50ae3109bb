import { createRequire } from 'node:module';
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** Paths that may carry secrets; pino replaces their values before a line is written. */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["stripe-signature"]',
  'req.headers["x-service-signature"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.currentPassword',
  '*.newPassword',
  '*.token',
  '*.apiKey',
  '*.secret',
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    base: { service: 'concord' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return destination ? pino(options, destination) : pino(options);
}

/** Whether the service logs for a person (config LOG_FORMAT): pretty in development at a terminal unless told. */
export function wantsPrettyLogs(format: 'auto' | 'pretty' | 'json', env: string, isTerminal: boolean): boolean {
  return format === 'pretty' || (format === 'auto' && env === 'development' && isTerminal);
}

/**
 * Short, readable lines on stdout (pino-pretty: time, level, message, and the line's other fields on the
 * same line), for a person running the service in development. pino-pretty is a development dependency:
 * where it is not installed (a production image), null, and the caller keeps JSON.
 */
export function prettyDestination(colorize: boolean): DestinationStream | null {
  try {
    const pretty = createRequire(import.meta.url)('pino-pretty') as (options: Record<string, unknown>) => DestinationStream;
    return pretty({ colorize, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,service,event,reqId', singleLine: true, sync: true });
  } catch {
    return null;
  }
}

/** Lines in a box, on lines of their own, so a message cannot be missed in a scrolling log. */
export function framed(lines: readonly string[]): string {
  const width = Math.max(...lines.map((line) => line.length));
  const rule = '─'.repeat(width + 2);
  return ['', `┌${rule}┐`, ...lines.map((line) => `│ ${line.padEnd(width)} │`), `└${rule}┘`].join('\n');
}
