// Reading an API description body (POST …/imports/openapi): JSON or YAML, or a zip of a
// description's files (archive-body.ts), under its own size limit (IMPORT_BODY_LIMIT, far above
// BODY_LIMIT), read as it streams in and then parsed or unpacked.
import express from 'express';
import type { Request, Response } from 'express';
import { parse as parseYaml } from 'yaml';
import { DESCRIPTION_BOUNDS, InvalidRequest, PayloadTooLarge, UnsupportedMediaType } from '../errors.ts';
import type { BodyReader } from '../routes/route.ts';
import { unpackArchive, type ArchiveLimits } from './archive-body.ts';

const OVERFLOW = 'Maximum call stack size exceeded';
const YAML_TYPES = ['application/yaml', 'application/x-yaml', 'text/yaml', 'text/x-yaml'];
const ZIP_TYPES = ['application/zip', 'application/x-zip-compressed'];

/** `maxDepth`: the nesting a description may have (its bound is checked after parsing; here it names why a parser gave up). */
export function documentBodyReader(limitBytes: number, maxDepth: number, archiveLimits: Pick<ArchiveLimits, 'maxFiles'>): BodyReader {
  const read = express.raw({ limit: limitBytes, type: () => true });
  return async (req: Request, res: Response) => {
    const type = req.is(['application/json', ...YAML_TYPES, ...ZIP_TYPES]);
    if (!type) {
      throw new UnsupportedMediaType([{ field: 'Content-Type', message: 'must be application/json, application/yaml or application/zip' }]);
    }
    // Over the limit: 413 with details, as the body limit's (one shape for every too-large body), from the header before
    // reading when it declares too much, else when the stream passes the limit.
    const tooLarge = (field: string) => new PayloadTooLarge([{ field, message: `is larger than the ${limitBytes} bytes an API description may have (IMPORT_BODY_LIMIT)` }]);
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limitBytes) throw tooLarge('Content-Length');
    await new Promise<void>((resolve, reject) => read(req, res, (error?: unknown) => {
      if (!error) resolve();
      else reject((error as { type?: unknown }).type === 'entity.too.large' ? tooLarge('body') : error);
    }));
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    if (ZIP_TYPES.includes(type)) return unpackArchive(raw, { maxBytes: limitBytes, maxFiles: archiveLimits.maxFiles });
    const text = raw.toString('utf8');
    if (type === 'application/json') {
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        throw InvalidRequest.field('/', `is not valid JSON: ${(error as Error).message}`);
      }
    }
    try {
      // Plain JSON-compatible YAML: no custom tags; aliases bounded against billion-laughs input.
      return parseYaml(text, { maxAliasCount: 1000, uniqueKeys: true }) as unknown;
    } catch (error) {
      // The YAML parser recurses once per level and overflows its stack some hundreds of levels
      // down: far deeper than a description may nest, so that is the bound to name.
      const message = (error as Error).message.split('\n')[0] ?? '';
      if (message.startsWith(OVERFLOW)) throw InvalidRequest.field('/', `${DESCRIPTION_BOUNDS.depth(maxDepth)}${message.slice(OVERFLOW.length)}`);
      throw InvalidRequest.field('/', `is not valid YAML: ${message}`);
    }
  };
}
