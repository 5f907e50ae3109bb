// One error type with a stable code (one of the contract's ErrorCode). Everything a client may see goes
// through AppError; anything else becomes a 500 INTERNAL with its message hidden (see
// middleware/error-handler.ts).
import type { CapScope, ErrorCode } from '@concord/contract';

export type ErrorDetails = Record<string, unknown>;

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
    readonly taskIndex?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export class NotFoundError extends AppError {
  constructor(code: ErrorCode, message: string) {
    super(404, code, message);
  }
}

export class ConflictError extends AppError {
  constructor(code: ErrorCode, message: string, details?: ErrorDetails) {
    super(409, code, message, details);
  }
}

export class BadRequestError extends AppError {
  constructor(code: ErrorCode, message: string, details?: ErrorDetails) {
    super(400, code, message, details);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Authentication required') {
    super(401, 'UNAUTHORIZED', message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'This credential may not call this route', details?: ErrorDetails) {
    super(403, 'FORBIDDEN', message, details);
  }
}

export class InsufficientCreditsError extends AppError {
  constructor(requiredCents: number, availableCents: number) {
    super(402, 'INSUFFICIENT_CREDITS', `Insufficient credits: ${requiredCents} cents required, ${availableCents} cents available`, {
      requiredCents,
      availableCents,
    });
  }
}

/** A cap that a creation or a budget raise passes (refused) or would pass (held). */
export interface CapBreach {
  scope: CapScope;
  projectId: string | null;
  capCents: number;
  /** Committed before the request. */
  committedCents: number;
  requiredCents: number;
}

export class BudgetCapReachedError extends AppError {
  constructor(readonly breach: CapBreach) {
    const which = breach.scope === 'project' ? `project ${breach.projectId}'s budget cap` : "the organisation's monthly cap";
    super(
      402,
      'BUDGET_CAP_REACHED',
      `This would pass ${which} of ${breach.capCents} cents: ${breach.committedCents} committed, ${breach.requiredCents} more required`,
      { ...breach },
    );
  }
}
