// GET {prefix}/search on both families: operations matching words, ranked, each with what a
// caller needs to call it (servers, resolved security). Read access, run by the one pipeline.
import { InvalidRequest } from '../errors.ts';
import type { Route, VersionContext } from '../routes/route.ts';
import { serviceNamed } from '../pipeline/stages.ts';
import { FAMILIES } from '../routes/route.ts';
import { serviceParameter, type Tag } from '../routes/documentation.ts';
import { SCHEMA_BASE, type SchemaRegistry } from '../schemas/registry.ts';
import type { RecordStore } from '../store/records.ts';
import { withObserved } from '../insights/observed.ts';
import type { Observations } from '../insights/observations.ts';
import type { SearchIndexes } from './indexes.ts';
import { wordsOf } from './text.ts';
import { LIFECYCLE_STAGES } from '../ownership/lifecycle.ts';
import { defined } from '../json/values.ts';
import { textsOf } from '../routes/texts.ts';

const texts = textsOf(new URL('./texts.md', import.meta.url));

const SEARCH_SEGMENT = '/search';
/**
 * What the published schema asks of `q`: a character that is neither white space nor ASCII
 * punctuation or control. Browsers (Swagger UI on /docs) compile a pattern without the `u` flag,
 * where `\p{L}` is no letter class but the letters `p{L}`, so the pattern names no Unicode class;
 * it lets through what the server refuses only for a query of symbols alone (`€`), which
 * searchOptions answers 400 as it checks letters and digits of every script.
 */
export const Q_PATTERN = '[^\\s\\x00-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-\\x7f]';
export const DEFAULT_HITS = 20;
export const MAX_HITS = 100;

export const SEARCH_TAG: Tag = {
  name: 'Search',
  description: 'Find an endpoint and the credentials it needs: a ranked search over operations, and the same catalog as Model Context Protocol tools for agents.',
};

export interface SearchParts {
  indexes: SearchIndexes;
  observations: Observations;
  schemas: SchemaRegistry;
  services: RecordStore;
}

export function searchEndpoints({ indexes, observations, schemas, services }: SearchParts): Route[] {
  return FAMILIES.map((family): Route => ({
    method: 'GET', path: `${family.prefix}${SEARCH_SEGMENT}`, target: family.name, access: 'read',
    body: false,
    // The first search after a write to the version builds its index from the version's
    // operations, paths, parameters and servers: that one costs the version's size.
    longRunning: true,
    doc: {
      operationId: `searchEndpoints${family.operationIdSuffix}`, tag: SEARCH_TAG.name, params: family.params,
      summary: 'Search endpoints',
      description: texts('searchEndpoints'),
      query: [
        {
          name: 'q', description: 'What to look for, in plain words ("delete a repository"); a `q` with no letter or digit (of any script) is 400.', schema: { type: 'string', pattern: Q_PATTERN }, required: true,
          invalid: NO_WORD, missing: NO_WORD,
        },
        { name: 'limit', description: `At most this many hits; default ${DEFAULT_HITS}.`, schema: { type: 'integer', minimum: 1, maximum: MAX_HITS, default: DEFAULT_HITS }, invalid: `must be an integer from 1 to ${MAX_HITS}` },
        serviceParameter('Only the operations of this service (slug or `svc_` id); an unknown service is 404.'),
        { name: 'lifecycle', description: 'Only the operations of services at this lifecycle stage (the Service\'s `lifecycle`).', schema: { type: 'string', enum: [...LIFECYCLE_STAGES] }, invalid: `must be one of ${LIFECYCLE_STAGES.join(', ')}` },
        { name: 'owner', description: 'Only the operations of services this team owns (the Service\'s `owner`, exactly).', schema: { type: 'string', minLength: 1 }, invalid: 'must be a team name' },
      ],
      responses: [{ status: 200, description: 'The hits, best first.', schema: { $ref: `${SCHEMA_BASE}api/search.json` } }],
      errors: [404],
    },
    async run({ version, query: { q, limit, service, lifecycle, owner } }: VersionContext<{ q: string; limit: number; service?: string; lifecycle?: string; owner?: string }>) {
      const options = { query: wordsIn(q), limit, ...defined({ lifecycle, owner }) };
      const serviceId = service === undefined ? undefined : (await serviceNamed(schemas, services, version.versionId, service, 'service')).id;
      const { ranking, hits } = await indexes.search(version.versionId, { ...options, ...(serviceId !== undefined && { serviceId }) });
      return { status: 200, body: { ranking, hits: await withObserved(observations, version.versionId, hits) } };
    },
  }));
}

const NO_WORD = 'must have at least one word';

/**
 * `q` when it has a word to look for. The published pattern lets through what has no letter or
 * digit of any script (`€`): a browser compiles it without the `u` flag, so it cannot name
 * Unicode classes; the words are the ones the index would look for (search/text.ts).
 */
export function wordsIn(q: string): string {
  if (wordsOf(q).length === 0) throw InvalidRequest.field('q', NO_WORD);
  return q;
}

/** A search of the pages (pages/version.ts): the words given, the default number of hits. */
export function searchOptions({ q, service }: { q: string; service?: string | undefined }): { query: string; limit: number; service?: string } {
  return { query: wordsIn(q), limit: DEFAULT_HITS, ...(service === undefined ? {} : { service }) };
}
