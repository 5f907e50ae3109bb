// The CLI's exit codes and the error every command throws to end with one. A script can rely on the code
// (sdk/README.md, "Exit codes") and, with --json, on the `error.code` of the JSON printed on stdout.
import {
  ConcordAbortError,
  ConcordAuthenticationError,
  ConcordError,
  ConcordInsufficientCreditsError,
  ConcordNotFoundError,
  ConcordPermissionError,
} from '@concord/sdk';

export const EXIT = {
  /** The command did what it was asked. */
  OK: 0,
  /** The service refused a request or could not be reached (network, timeout, 5xx after retries). */
  API_ERROR: 1,
  /** Wrong arguments or an unusable input file: nothing was sent. */
  USAGE: 2,
  /** No credential configured, or the service refused it (401/403). */
  AUTH: 3,
  /** The import finished, but some rows were refused (listed in the error report). */
  PARTIAL: 4,
  /** The balance does not cover what the request would reserve (402 INSUFFICIENT_CREDITS), or a spending cap refuses it (402 BUDGET_CAP_REACHED). */
  INSUFFICIENT_CREDITS: 5,
  /** Ctrl-C (SIGINT) in the middle of a command's work; not `webhooks listen`, which Ctrl-C ends with OK. */
  INTERRUPTED: 130,
  /** SIGTERM. */
  TERMINATED: 143,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A failure the CLI reports as `{error: {code, message, …}}` and ends with `exitCode`. */
export class CliError extends Error {
  constructor(
    readonly exitCode: ExitCode,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export const usageError = (message: string, code = 'USAGE') => new CliError(EXIT.USAGE, code, message);

/** Any error as the CLI's: the SDK's typed errors keep their code, status and request id. */
export function toCliError(error: unknown): CliError {
  if (error instanceof CliError) return error;
  if (error instanceof ConcordError) {
    const extra: Record<string, unknown> = { status: error.status ?? null, requestId: error.requestId ?? null };
    if (error.details) extra.details = error.details;
    if (error instanceof ConcordAuthenticationError || error instanceof ConcordPermissionError) {
      return new CliError(EXIT.AUTH, error.code, `${error.message} (check the API key: concord login)`, extra);
    }
    if (error instanceof ConcordInsufficientCreditsError) return new CliError(EXIT.INSUFFICIENT_CREDITS, error.code, error.message, extra);
    if (error instanceof ConcordAbortError) return new CliError(EXIT.INTERRUPTED, error.code, 'Interrupted', extra);
    return new CliError(EXIT.API_ERROR, error.code, error.message, extra);
  }
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  // A file the system refuses (ENOENT, EACCES, EISDIR…) is the caller's to fix.
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return new CliError(EXIT.USAGE, code, message);
  return new CliError(EXIT.API_ERROR, 'INTERNAL', message);
}

/**
 * Ctrl-C (SIGINT) and SIGTERM while a command runs: the first aborts `signal` (with the signal's name as
 * its reason) and is kept as `received`, and a second one then ends the process as usual. With `then`,
 * every signal is handled and `then` runs too (import saves its checkpoint, and exits at a second one).
 * `dispose()` removes the handlers; call it in a `finally`.
 */
export function interruption(then?: (signal: NodeJS.Signals, earlier: NodeJS.Signals | undefined) => void) {
  const controller = new AbortController();
  const state = {
    signal: controller.signal,
    received: undefined as NodeJS.Signals | undefined,
    /** Ends the command's own waits (a stream, a pause) without a signal. */
    abort: (reason?: unknown) => controller.abort(reason),
    dispose: () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
  const handler = (signal: NodeJS.Signals) => {
    const earlier = state.received;
    state.received = signal;
    if (then) then(signal, earlier);
    else state.dispose();
    controller.abort(signal);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return state;
}

/** The exit code of a command stopped by `signal`: 130 for SIGINT, 143 for SIGTERM. */
export const interruptedExitCode = (signal: NodeJS.Signals) => (signal === 'SIGINT' ? EXIT.INTERRUPTED : EXIT.TERMINATED);

/** The error a command stopped by `signal` ends with. */
export const interruptedError = (signal: NodeJS.Signals, message: string, extra: Record<string, unknown> = {}) =>
  new CliError(interruptedExitCode(signal), 'INTERRUPTED', message, extra);

/** Whether the service has no event stream (an older server): 404 or 405 on GET /events/stream. */
export const streamUnavailable = (error: unknown) =>
  error instanceof ConcordNotFoundError || (error instanceof ConcordError && (error.status === 405 || error.code === 'METHOD_NOT_ALLOWED'));
