import type { RequestHandler } from 'express';
import multer from 'multer';
import { CSV_MAX_BYTES } from '@concord/contract';
import { AppError, BadRequestError } from '../lib/errors.ts';

/**
 * Accepts one multipart file part named `file`, held in memory (at most CSV_MAX_BYTES), and maps the
 * parser's failures to the contract's codes.
 */
export function singleFileUpload(maxBytes = CSV_MAX_BYTES): RequestHandler {
  const upload = multer({ storage: multer.memoryStorage(), limits: { fileSize: maxBytes, files: 1, fields: 10, parts: 11 } }).single('file');
  return (req, res, next) => {
    upload(req, res, (error: unknown) => {
      if (!error) {
        if (!req.file) return next(new BadRequestError('MISSING_FILE', 'Send the CSV as a multipart/form-data part named "file"'));
        return next();
      }
      if (error instanceof multer.MulterError) {
        if (error.code === 'LIMIT_FILE_SIZE') return next(new AppError(413, 'FILE_TOO_LARGE', `The file is larger than ${maxBytes} bytes (5 MB)`));
        if (error.code === 'LIMIT_UNEXPECTED_FILE') {
          return next(new BadRequestError('MISSING_FILE', `Expected one file part named "file", got "${error.field ?? ''}"`));
        }
        return next(new BadRequestError('VALIDATION_ERROR', `Invalid multipart request: ${error.message}`));
      }
      return next(new BadRequestError('VALIDATION_ERROR', 'The request is not valid multipart/form-data'));
    });
  };
}
