// An uploaded archive of a description's files made one document: the entry named by `?entry=`,
// else the one root document the archive holds, bundled with every file it reaches (bundle.ts).
// Nothing outside the archive is read: no file of the server, no URL.
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { InvalidRequest } from '../errors.ts';
import type { DescriptionArchive } from '../http/archive-body.ts';
import type { JsonObject } from '../json/values.ts';
import { bundleDescription, BundleRefused } from './bundle.ts';

/** Where the archive's files seem to sit for the bundler: a folder no real one is read from. */
const ROOT = '/archive';
const DESCRIPTION_FILE = /\.(ya?ml|json)$/i;
/** A root document says which specification it follows at its top level. */
const ROOT_KEY = /^\{?\s*["']?(openapi|swagger)["']?\s*:/m;

export async function bundleArchive(archive: DescriptionArchive, entry: string | undefined): Promise<JsonObject> {
  const chosen = entry ?? rootDocumentOf(archive);
  if (!archive.files.has(chosen)) throw InvalidRequest.field('entry', `names no file of the archive (${chosen})`);
  try {
    const { document } = await bundleDescription(chosen, {
      root: ROOT,
      read: async (file) => {
        const content = archive.files.get(path.posix.relative(ROOT, file));
        if (content === undefined) throw new Error('not in the archive');
        return content.toString('utf8');
      },
    });
    return document;
  } catch (error) {
    if (!(error instanceof BundleRefused)) throw error;
    throw new InvalidRequest(error.problems.map(({ file, message }) => ({ field: file, message })));
  }
}

/** The one file whose top level names `openapi` or `swagger`; the shallowest ones when several do at different depths. */
function rootDocumentOf(archive: DescriptionArchive): string {
  const roots = [...archive.files].filter(([name, content]) => DESCRIPTION_FILE.test(name) && isRootDocument(content)).map(([name]) => name);
  const shallowest = Math.min(...roots.map(depth));
  const found = roots.filter((name) => depth(name) === shallowest);
  if (found.length === 1) return found[0]!;
  if (found.length === 0) throw InvalidRequest.field('entry', 'is needed: the archive holds no file with `openapi` or `swagger` at its top level');
  throw InvalidRequest.field('entry', `is needed: the archive holds several root documents (${found.sort().join(', ')})`);
}

function isRootDocument(content: Buffer): boolean {
  const text = content.toString('utf8');
  if (!ROOT_KEY.test(text)) return false;
  try {
    const parsed: unknown = parseYaml(text, { maxAliasCount: 1000 });
    return typeof parsed === 'object' && parsed !== null && ('openapi' in parsed || 'swagger' in parsed);
  } catch {
    return false;
  }
}

function depth(name: string): number {
  return name.split('/').length;
}
