// Reading a report: HAR or OTLP JSON, or NDJSON lines, up to IMPORT_BODY_LIMIT (a browser's HAR
// of a working day is far larger than one record), gzip as collectors send it; with the report's
// Idempotency-Key header. Parsing is the report's own (reports.ts): NDJSON is not one JSON value.
import express from 'express';
import type { Request, Response } from 'express';
import { InvalidRequest, PayloadTooLarge } from '../errors.ts';
import { acceptedMediaType, readBytes, utf8Text } from '../http/body.ts';
import type { BodyReader } from '../routes/route.ts';
import { REPORT_MEDIA_TYPES, type RawReport } from './reports.ts';

export interface ReportBody extends RawReport {
  idempotencyKey: string | undefined;
}

const KEY = /^[\x21-\x7e]{1,255}$/;

export function reportBodyReader(limitBytes: number): BodyReader {
  const raw = express.raw({ limit: limitBytes, type: () => true, inflate: true });
  return async (req: Request, res: Response): Promise<ReportBody> => {
    const contentType = acceptedMediaType(req.headers['content-type'], REPORT_MEDIA_TYPES);
    const key = req.headers['idempotency-key'];
    if (key !== undefined && (typeof key !== 'string' || !KEY.test(key))) {
      throw InvalidRequest.field('Idempotency-Key', 'must be 1 to 255 visible ASCII characters, given once');
    }
    const text = utf8Text(await readBytes(raw, req, res, translate));
    return { contentType, text, idempotencyKey: key };
  };
}

function translate(error: unknown): unknown {
  const type = (error as { type?: unknown }).type;
  if (type === 'entity.too.large') return new PayloadTooLarge([{ field: 'body', message: 'is larger than the report limit (IMPORT_BODY_LIMIT)' }]);
  if ((error as { status?: unknown }).status === 400 && typeof type !== 'string') return InvalidRequest.field('Content-Encoding', 'body is not valid compressed data');
  return error;
}
