// The round trip of one real description, over HTTP as a client would make it: import, export,
// re-import the export (a dry run, so it reports what it would change), compare. It holds when
// the export is valid OpenAPI 3.1 by the validator the import uses, the re-import would write
// nothing and report no change for clients, and the export is within SIZE_RATIO of the
// description (both as JSON without whitespace): an export far larger repeats what the
// description shared by reference.
import { validate } from '@scalar/openapi-parser';
import { brief, writes, type Failure, type Target } from './checks.ts';

/** How much larger than the description its export may be. */
export const SIZE_RATIO = 1.5;

type Json = Record<string, unknown>;

export interface RoundTrip {
  failures: Failure[];
  /** The description's and its export's size as JSON without whitespace (none when the import failed). */
  bytes: number;
  exportBytes?: number;
}

export async function checkRoundTrip(target: Target, document: Json, slug: string): Promise<RoundTrip> {
  const failures: Failure[] = [];
  const fail = (step: string, message: string, changesReport = false): void => { failures.push({ step, message, changesReport }); };
  const auth = { Authorization: `Bearer ${target.key}` };
  const prefix = `/v2/catalog/versions/${target.versionId}`;
  const bytes = JSON.stringify(document).length;

  const imported = await target.request.post(`${prefix}/imports/openapi?service=${slug}`).set(auth).send(document);
  if (imported.status !== 201 && imported.status !== 200) {
    fail('import', `answered ${imported.status}: ${brief(imported.body)}`);
    return { failures, bytes };
  }
  const exported = await target.request.get(`${prefix}/services/${slug}/openapi`).set(auth);
  if (exported.status !== 200) {
    fail('export', `answered ${exported.status}: ${brief(exported.body)}`);
    return { failures, bytes };
  }
  const exportBytes = JSON.stringify(exported.body).length;
  if (exportBytes > SIZE_RATIO * bytes) fail('size', `the export is ${(exportBytes / bytes).toFixed(2)}x the description (${bytes} → ${exportBytes} bytes)`);

  const { valid, errors } = await validate(structuredClone(exported.body) as never);
  if (!valid) fail('export valid', (errors ?? []).slice(0, 3).map(({ path, message }) => `${String(path)}: ${message}`).join('; '));

  const again = await target.request.post(`${prefix}/imports/openapi?service=${slug}&dryRun=true`).set(auth).send(exported.body as object);
  if (again.status !== 200) fail('re-import the export', `answered ${again.status}: ${brief(again.body)}`);
  else {
    const written = writes(again.body['records'] as Parameters<typeof writes>[0]);
    if (written.length > 0) fail('re-import the export', `would write ${written.join(', ')}`);
    const summary = (again.body['changes'] as { summary?: { breaking: number; nonBreaking: number } } | undefined)?.summary;
    if (!summary || summary.breaking + summary.nonBreaking > 0) fail('re-import the export', `reports ${summary ? `${summary.breaking} breaking and ${summary.nonBreaking} non-breaking changes` : 'no changes report'}`, true);
  }
  return { failures, bytes, exportBytes };
}
