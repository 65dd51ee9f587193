// Reading a JSON request body: content type and charset (415), emptiness, declared and actual
// size (413), encoding (400), strict UTF-8 and syntax (400), then what one record may cost:
// nesting depth, total object keys and size, plus the checks JSON.parse does not make
// (well-formed Unicode, finite numbers): the rules of store/record-cost.ts.
import express from 'express';
import type { Request, Response } from 'express';
import { parse as parseContentType } from 'content-type';
import { InvalidRequest, PayloadTooLarge, UnsupportedMediaType } from '../errors.ts';
import type { BodyReader } from '../routes/route.ts';
import { checkBody, type RecordLimits, tooLarge } from '../store/record-cost.ts';

/** express.raw's middleware: reads the body's bytes (inflated) into `req.body`. */
type RawReader = ReturnType<typeof express.raw>;

const ENCODINGS = new Set(['identity', 'gzip', 'deflate', 'br']);
// fatal: see utf8Text.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

export function jsonBodyReader(limitBytes: number, limits: RecordLimits): BodyReader {
  // Bytes only: decoding and parsing are done here, strictly. inflate: gzip, deflate and br.
  const raw = express.raw({ limit: limitBytes, type: () => true, inflate: true });
  return async (req, res) => {
    checkContentType(req.headers['content-type']);
    // Refused from the header, before reading: the error answer closes the connection, so
    // the body need not be sent at all.
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limitBytes) {
      throw new PayloadTooLarge([{ field: 'Content-Length', message: `is larger than the ${limitBytes} bytes a body may have` }]);
    }
    const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    if (!ENCODINGS.has(encoding)) {
      throw new UnsupportedMediaType([{ field: 'Content-Encoding', message: 'must be gzip, deflate, br or identity' }]);
    }
    const bytes = await readBytes(raw, req, res, (error) => translate(error, encoding));
    if (bytes.length > limits.maxBytes) throw new PayloadTooLarge([{ field: 'body', message: tooLarge(limits) }]);
    const text = utf8Text(bytes);
    let value: unknown;
    try {
      // strict JSON, but any value: `"x"`, `42`, `null` are answered by the operation as `/`
      // "must be a JSON object", not as "is not valid JSON".
      value = JSON.parse(text);
    } catch {
      throw InvalidRequest.field('body', 'is not valid JSON');
    }
    checkBody(value, limits);
    req.body = value;
    return value;
  };
}

/**
 * The body's bytes, read by `raw` with its errors turned into ours by `translate`; 400 when
 * there are none. Shared by every reader that decodes its body itself (JSON here, reports).
 */
export async function readBytes(raw: RawReader, req: Request, res: Response, translate: (error: unknown) => unknown): Promise<Buffer> {
  await new Promise<void>((resolve, reject) => raw(req, res, (error?: unknown) => (error ? reject(translate(error)) : resolve())));
  const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  if (bytes.length === 0) throw InvalidRequest.field('body', 'is empty');
  return bytes;
}

/** The bytes as text, strictly: invalid UTF-8 is 400, not replaced by U+FFFD and stored. */
export function utf8Text(bytes: Buffer): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw InvalidRequest.field('body', 'is not valid UTF-8');
  }
}

/** The media type of a Content-Type header, if it is one of `accepted` with charset utf-8 or none; 415 otherwise. */
export function acceptedMediaType(header: string | undefined, accepted: readonly string[]): string {
  const refusal = new UnsupportedMediaType([{ field: 'Content-Type', message: `must be ${accepted.join(', ')}` }]);
  let parsed: ReturnType<typeof parseContentType>;
  try {
    parsed = parseContentType(header ?? '');
  } catch {
    throw refusal;
  }
  if (!accepted.includes(parsed.type)) throw refusal;
  const charset = parsed.parameters['charset'];
  if (charset !== undefined && charset.toLowerCase() !== 'utf-8') {
    throw new UnsupportedMediaType([{ field: 'Content-Type', message: 'charset must be utf-8' }]);
  }
  return parsed.type;
}

/** `application/json`, charset utf-8 if any; 415 otherwise, named precisely. */
function checkContentType(header: string | undefined): void {
  acceptedMediaType(header, ['application/json']);
}

/** body-parser's errors → ours; a body that does not inflate is blamed on its encoding. */
function translate(error: unknown, encoding: string): unknown {
  const type = (error as { type?: unknown }).type;
  if (type === 'entity.too.large') return new PayloadTooLarge([{ field: 'body', message: 'is larger than the body limit' }]);
  if (typeof type === 'string') return error;
  if ((error as { status?: unknown }).status === 400) {
    return InvalidRequest.field('Content-Encoding', `body is not valid ${encoding} data`);
  }
  return error;
}
