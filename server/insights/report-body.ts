// Reading a report: HAR or OTLP JSON, or NDJSON lines, up to IMPORT_BODY_LIMIT (a browser's HAR
// of a working day is far larger than one record), gzip as collectors send it; with the report's
// Idempotency-Key header. Parsing is the report's own (reports.ts): NDJSON is not one JSON value.
import express from 'express';
import type { Request, Response } from 'express';
import { parse as parseContentType } from 'content-type';
import { InvalidRequest, PayloadTooLarge, UnsupportedMediaType } from '../errors.ts';
import type { BodyReader } from '../http/body.ts';
import { REPORT_MEDIA_TYPES, type RawReport } from './reports.ts';

export interface ReportBody extends RawReport {
  idempotencyKey: string | undefined;
}

const KEY = /^[\x21-\x7e]{1,255}$/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

export function reportBodyReader(limitBytes: number): BodyReader {
  const raw = express.raw({ limit: limitBytes, type: () => true, inflate: true });
  return async (req: Request, res: Response): Promise<ReportBody> => {
    const contentType = mediaType(req.headers['content-type']);
    const key = req.headers['idempotency-key'];
    if (key !== undefined && (typeof key !== 'string' || !KEY.test(key))) {
      throw InvalidRequest.field('Idempotency-Key', 'must be 1 to 255 visible ASCII characters, given once');
    }
    await new Promise<void>((resolve, reject) => raw(req, res, (error?: unknown) => (error ? reject(translate(error)) : resolve())));
    const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    if (bytes.length === 0) throw InvalidRequest.field('body', 'is empty');
    let text: string;
    try {
      text = UTF8.decode(bytes);
    } catch {
      throw InvalidRequest.field('body', 'is not valid UTF-8');
    }
    return { contentType, text, idempotencyKey: key };
  };
}

function mediaType(header: string | undefined): string {
  const refusal = new UnsupportedMediaType([{ field: 'Content-Type', message: `must be ${REPORT_MEDIA_TYPES.join(', ')}` }]);
  let parsed: ReturnType<typeof parseContentType>;
  try {
    parsed = parseContentType(header ?? '');
  } catch {
    throw refusal;
  }
  if (!(REPORT_MEDIA_TYPES as readonly string[]).includes(parsed.type)) throw refusal;
  const charset = parsed.parameters['charset'];
  if (charset !== undefined && charset.toLowerCase() !== 'utf-8') throw new UnsupportedMediaType([{ field: 'Content-Type', message: 'charset must be utf-8' }]);
  return parsed.type;
}

function translate(error: unknown): unknown {
  const type = (error as { type?: unknown }).type;
  if (type === 'entity.too.large') return new PayloadTooLarge([{ field: 'body', message: 'is larger than the report limit (IMPORT_BODY_LIMIT)' }]);
  if ((error as { status?: unknown }).status === 400 && typeof type !== 'string') return InvalidRequest.field('Content-Encoding', 'body is not valid compressed data');
  return error;
}
