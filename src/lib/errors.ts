// One error type with a stable code (one of the contract's ErrorCode). Everything a client may see goes
// through AppError; anything else becomes a 500 INTERNAL with its message hidden (see
// middleware/error-handler.ts).
import type { ErrorCode } from '@concord/contract';

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
