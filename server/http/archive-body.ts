// An API description uploaded as a zip of its files (POST …/imports/openapi with
// `Content-Type: application/zip`), unpacked in memory under the bounds of any import: the files
// together no larger than IMPORT_BODY_LIMIT unpacked, at most ARCHIVE_MAX_FILES of them, each
// name a plain relative path inside the archive. yauzl reads the zip (and checks each entry's
// inflated size against what its header declared, so a bomb cannot lie about its size).
import path from 'node:path';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { InvalidRequest } from '../errors.ts';

/** The files of an uploaded archive, by their path inside it (`/`-separated, no leading `/`). */
export class DescriptionArchive {
  readonly files: ReadonlyMap<string, Buffer>;
  constructor(files: ReadonlyMap<string, Buffer>) {
    this.files = files;
  }
}

export interface ArchiveLimits {
  /** Bytes of all files together, unpacked (IMPORT_BODY_LIMIT). */
  maxBytes: number;
  /** Files (ARCHIVE_MAX_FILES). */
  maxFiles: number;
}

/** Folders deep a file may be: far beyond any real layout, and a bound on every path's length. */
const MAX_FOLDER_DEPTH = 32;

export async function unpackArchive(zip: Buffer, limits: ArchiveLimits): Promise<DescriptionArchive> {
  const archive = await yauzl.fromBufferPromise(zip, { strictFileNames: true, validateEntrySizes: true }).catch((error: Error) => {
    throw InvalidRequest.field('/', `is not a readable zip archive: ${error.message}`);
  });
  const files = new Map<string, Buffer>();
  let unpacked = 0;
  try {
    if (archive.entryCount > limits.maxFiles) throw tooMany(limits);
    for await (const entry of archive.eachEntry()) {
      const name = entry.fileName;
      if (name.endsWith('/')) continue;
      checkName(name);
      if (files.has(name)) throw InvalidRequest.field(name, 'is in the archive twice');
      if (isSymlink(entry.externalFileAttributes)) throw InvalidRequest.field(name, 'is a symbolic link; the archive must hold plain files');
      // Counted from the headers before inflating, then again as it inflates (yauzl stops an
      // entry that inflates past what its header declared).
      unpacked += entry.uncompressedSize;
      if (unpacked > limits.maxBytes) throw tooLarge(name, limits);
      files.set(name, await inflated(await archive.openReadStreamPromise(entry), name));
    }
  } catch (error) {
    if (error instanceof InvalidRequest) throw error;
    throw InvalidRequest.field('/', `is not a readable zip archive: ${(error as Error).message}`);
  } finally {
    archive.close();
  }
  if (files.size === 0) throw InvalidRequest.field('/', 'is an archive with no files');
  return new DescriptionArchive(files);
}

/** yauzl already refuses absolute names, `..` segments and backslashes (strictFileNames); what it lets by is bounded here. */
function checkName(name: string): void {
  const problem = yauzl.validateFileName(name);
  if (problem) throw InvalidRequest.field(name, `is not a path inside the archive (${problem})`);
  const segments = name.split('/');
  if (segments.length > MAX_FOLDER_DEPTH) throw InvalidRequest.field(name, `is nested deeper than ${MAX_FOLDER_DEPTH} folders`);
  if (segments.some((segment) => segment === '.' || segment === '' || segment.includes('\0'))) {
    throw InvalidRequest.field(name, 'is not a plain path inside the archive');
  }
  if (path.posix.normalize(name) !== name) throw InvalidRequest.field(name, 'is not a plain path inside the archive');
}

function inflated(stream: Readable, name: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.once('end', () => resolve(Buffer.concat(chunks)));
    stream.once('error', (error: Error) => reject(InvalidRequest.field(name, `cannot be unpacked: ${error.message}`)));
  });
}

function isSymlink(externalAttributes: number): boolean {
  // The Unix mode sits in the high 16 bits of a zip entry's external attributes.
  return ((externalAttributes >>> 16) & 0o170000) === 0o120000;
}

function tooLarge(name: string, limits: ArchiveLimits): InvalidRequest {
  return InvalidRequest.field(name, `takes the archive past the ${limits.maxBytes} bytes its files may have unpacked (IMPORT_BODY_LIMIT)`);
}

function tooMany(limits: ArchiveLimits): InvalidRequest {
  return InvalidRequest.field('/', `holds more than the ${limits.maxFiles} files an archive may have (ARCHIVE_MAX_FILES)`);
}
