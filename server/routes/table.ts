// The route table: every route of the interface, generated as the cross product of the two
// route families, the collections described in schemas/collections.json, and six operations.
// Routes are data; the OpenAPI document and the router are both read from this table.
import type { Access } from '../auth/credential.ts';
import type { Operation } from '../operations/context.ts';
import { create } from '../operations/create.ts';
import { remove } from '../operations/delete.ts';
import { get } from '../operations/get.ts';
import { list } from '../operations/list.ts';
import { replace } from '../operations/replace.ts';
import { update } from '../operations/update.ts';
import { SCHEMA_BASE, type Collection } from '../schemas/registry.ts';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface OperationSpec {
  name: 'list' | 'create' | 'get' | 'replace' | 'update' | 'delete';
  method: Method;
  /** Item routes end in `/{id}`. */
  item: boolean;
  access: Access;
  /** Whether the operation reads a JSON body. */
  body: boolean;
  /** Success statuses, for documentation. */
  success: readonly number[];
  run: Operation;
}

export const OPERATIONS: readonly OperationSpec[] = [
  { name: 'list', method: 'GET', item: false, access: 'read', body: false, success: [200], run: list },
  { name: 'create', method: 'POST', item: false, access: 'write', body: true, success: [201], run: create },
  { name: 'get', method: 'GET', item: true, access: 'read', body: false, success: [200], run: get },
  { name: 'replace', method: 'POST', item: true, access: 'write', body: true, success: [200, 201], run: replace },
  { name: 'update', method: 'PATCH', item: true, access: 'write', body: true, success: [200], run: update },
  { name: 'delete', method: 'DELETE', item: true, access: 'write', body: false, success: [204], run: remove },
];

export interface Family {
  name: 'V' | 'P';
  /** Express path of the family's prefix. */
  prefix: string;
  /** The schema of each parameter of the prefix (`$id`s of schemas/), for the document. */
  params: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Ends the operationIds of the family's routes: `getPath`, `getPathByProject`. */
  operationIdSuffix: string;
}

const IDS = `${SCHEMA_BASE}defs/ids.json#/$defs/`;

export const FAMILIES: readonly Family[] = [
  { name: 'V', prefix: '/v2/catalog/versions/:versionId', params: { versionId: { $ref: `${IDS}versionId` } }, operationIdSuffix: '' },
  {
    name: 'P',
    prefix: '/v2/catalog/projects/:projectRef/:versionType/:versionSlug',
    params: { projectRef: { $ref: `${IDS}projectRef` }, versionType: { $ref: `${IDS}versionType` }, versionSlug: { $ref: `${IDS}versionSlug` } },
    operationIdSuffix: 'ByProject',
  },
];

export interface Route {
  family: Family;
  collection: Collection;
  operation: OperationSpec;
  /** Express path, e.g. `/v2/catalog/versions/:versionId/paths/:id`. */
  path: string;
}

export function routeTable(collections: readonly Collection[]): Route[] {
  return FAMILIES.flatMap((family) => collections.flatMap((collection) => OPERATIONS.map((operation) => ({
    family,
    collection,
    operation,
    path: `${family.prefix}/${collection.name}${operation.item ? '/:id' : ''}`,
  }))));
}
