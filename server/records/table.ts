// The route table: every route of the interface, generated as the cross product of the two
// route families, the collections described in schemas/collections.json, and six operations.
// Routes are data; the OpenAPI document and the router are both read from this table.
import type { Access } from '../auth/credential.ts';
import type { RecordAction } from './context.ts';
import { create } from './create.ts';
import { remove } from './delete.ts';
import { get } from './get.ts';
import { list } from './list.ts';
import { replace } from './replace.ts';
import { update } from './update.ts';
import { FAMILIES, type Family, type Method } from '../routes/route.ts';
import type { CompiledCollection } from '../schemas/registry.ts';

export interface ActionSpec {
  name: 'list' | 'create' | 'get' | 'replace' | 'update' | 'delete';
  method: Method;
  /** Item routes end in `/{id}`. */
  item: boolean;
  access: Access;
  /** Whether the action reads a JSON body. */
  body: boolean;
  /** The answers `run` gives when it succeeds; the OpenAPI document is written from these. */
  success: readonly Success[];
  run: RecordAction;
}

/** One success answer of an action. */
export interface Success {
  status: number;
  /** What the body is: one page of records, the record, or no body. */
  body: 'page' | 'record' | 'none';
  /** What the answer means, given the record's name (`path`) and the collection's (`paths`). */
  says: (one: string, many: string) => string;
}

export const ACTIONS: readonly ActionSpec[] = [
  {
    name: 'list', method: 'GET', item: false, access: 'read', body: false, run: list,
    success: [{ status: 200, body: 'page', says: (_one, many) => `One page of ${many}, in the requested order.` }],
  },
  {
    name: 'create', method: 'POST', item: false, access: 'write', body: true, run: create,
    success: [{ status: 201, body: 'record', says: (one) => `The ${one} as stored.` }],
  },
  {
    name: 'get', method: 'GET', item: true, access: 'read', body: false, run: get,
    success: [{ status: 200, body: 'record', says: (one) => `The ${one}.` }],
  },
  {
    name: 'replace', method: 'POST', item: true, access: 'write', body: true, run: replace,
    success: [
      { status: 200, body: 'record', says: (one) => `The ${one} replaced.` },
      { status: 201, body: 'record', says: (one) => `The ${one} created, since the id was free in this version.` },
    ],
  },
  {
    name: 'update', method: 'PATCH', item: true, access: 'write', body: true, run: update,
    success: [{ status: 200, body: 'record', says: (one) => `The ${one} as updated.` }],
  },
  {
    name: 'delete', method: 'DELETE', item: true, access: 'write', body: false, run: remove,
    success: [{ status: 204, body: 'none', says: (one) => `The ${one} is deleted; no body.` }],
  },
];

export interface RecordRoute {
  family: Family;
  collection: CompiledCollection;
  action: ActionSpec;
  /** Express path, e.g. `/v2/catalog/versions/:versionId/paths/:id`. */
  path: string;
}

export function routeTable(collections: readonly CompiledCollection[]): RecordRoute[] {
  return FAMILIES.flatMap((family) => collections.flatMap((collection) => ACTIONS.map((action) => ({
    family,
    collection,
    action,
    path: `${family.prefix}/${collection.name}${action.item ? '/:id' : ''}`,
  }))));
}
