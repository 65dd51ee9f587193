// Spotify's description with lifecycle marks, as the lifecycle specs import it: an operation
// deprecated with a sunset to come, one with a sunset past, two of an operation's parameters and
// a request body property likewise.
import { readDescription } from '../../support/directory.ts';

type Json = Record<string, any>;

export const PAST = '2020-01-01';
export const FUTURE = '2099-12-31';

/** Spotify with lifecycle marks: `mark` edits a copy of the paths. */
export function spotify(mark: (paths: Json, components: Json) => void = () => {}): Json {
  const document = structuredClone(readDescription('spotify.com.json')) as Json;
  mark(document['paths'], document['components']);
  return document;
}

/** The deprecations the tests remove, one by one. */
export function deprecated(paths: Json, components: Json): void {
  Object.assign(paths['/audio-analysis/{id}'].get, { deprecated: true, 'x-sunset': FUTURE });
  Object.assign(paths['/audio-features/{id}'].get, { deprecated: true, 'x-sunset': PAST });
  // The album's tracks take `market` and `limit` by reference; inlined here, each deprecated.
  const tracks = paths['/albums/{id}/tracks'].get;
  tracks.parameters = tracks.parameters.map((parameter: Json) => {
    if (parameter['$ref'] === '#/components/parameters/QueryMarket') return { ...components['parameters'].QueryMarket, deprecated: true, 'x-sunset': PAST };
    if (parameter['$ref'] === '#/components/parameters/QueryLimit') return { ...components['parameters'].QueryLimit, deprecated: true, 'x-sunset': FUTURE };
    return parameter;
  });
  Object.assign(paths['/me/tracks'].put.requestBody.content['application/json'].schema.properties.ids, { deprecated: true, 'x-sunset': PAST });
}
