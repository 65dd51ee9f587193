// Each record kind rendered as its part of an OpenAPI 3.1 document, from its own fields only
// (children are assembled by export.ts): the renderings of the kinds' modules (kinds/), by
// collection. The import stores in kvStorage what the original object holds beyond this
// rendering, so render + kvStorage gives the original back.
import type { Fields } from '../records/record-body.ts';
import type { JsonObject } from '../json/values.ts';
import { KINDS } from './kinds.ts';

export const RENDER: Readonly<Record<string, (record: Fields) => JsonObject>> = Object.fromEntries(Object.entries(KINDS).map(([name, { render }]) => [name, render]));
