// The index's document of an operation: its texts field by field (operationId, title, path words,
// tags, the verbs of its method, its service, parameter names, description with the texts of
// the records a schema author maps from its extensions) and how much a match in each counts;
// which operations' documents a write touches.
import type { CatalogRecord } from '../store/records.ts';
import type { VersionView } from './endpoints.ts';
import { methodText } from './text.ts';
import { operationTitle } from './title.ts';

/**
 * How much a match in each field counts. The operation's own names (operationId, summary) say
 * most about what it does; the path and tags say what it acts on; the method field holds the
 * verbs people say for it (text.ts); descriptions and parameter names are long and general, so
 * they count least, and BM25 already discounts long fields and words common to many operations.
 */
export const BOOSTS = {
  operationId: 2,
  summary: 2,
  path: 1.5,
  tags: 1,
  method: 1,
  service: 1,
  parameters: 0.5,
  description: 0.5,
} as const;

type Field = keyof typeof BOOSTS;
/** An operation as the index holds it: one text per field. */
export type Document = Record<Field, string> & { id: string };

/** One document per operation whose path is in the version. */
export function documentsOf(view: VersionView): Document[] {
  const parameterNames = new Map<string, string[]>();
  for (const parameter of view.of('parameters')) {
    const owner = parameterOwner(parameter);
    if (owner !== undefined) parameterNames.set(owner, [...(parameterNames.get(owner) ?? []), String(parameter['name'])]);
  }
  const extended = extendedTexts(view);
  return view.of('operations').flatMap((operation) => {
    const document = documentOf(view, operation, (ownerId) => parameterNames.get(ownerId) ?? [], extended.get(operation.id) ?? []);
    return document ? [document] : [];
  });
}

/**
 * The texts of the records of the view's extension kinds (extension-kinds.ts: code samples…) on
 * each operation, or on `only` that one: searched as its description is.
 */
function extendedTexts(view: VersionView, only?: string): Map<string, string[]> {
  const texts = new Map<string, string[]>();
  for (const { collection, parentField, fields } of view.extensions) {
    for (const record of view.of(collection.name)) {
      const owner = str(record[parentField]);
      if (owner === undefined || (only !== undefined && owner !== only)) continue;
      const own = fields.map((field) => record[field]).filter((value): value is string => typeof value === 'string');
      texts.set(owner, [...(texts.get(owner) ?? []), ...own]);
    }
  }
  return texts;
}

/** A parameter's owner as documents count it: its operation, else its path. */
export function parameterOwner(parameter: CatalogRecord): string | undefined {
  return str(parameter['operationId']) ?? str(parameter['pathId']);
}

/** The operation's document, or none when its path is not in the view; `parameterNames` of an owner's parameters, in document order. */
export function documentOf(view: VersionView, operation: CatalogRecord, parameterNames: (ownerId: string) => readonly string[], extended: readonly string[] = extendedTexts(view, operation.id).get(operation.id) ?? []): Document | undefined {
  const path = view.byId('paths', operation['pathId']);
  if (!path) return undefined;
  const service = view.byId('services', path['serviceId']);
  const segments = (str(path['path']) ?? '').split('/');
  return {
    id: operation.id,
    operationId: str(operation['operationId']) ?? '',
    summary: titleOf(operation),
    description: [str(operation['description']) ?? '', ...extended].join(' '),
    path: segments.filter((segment) => !segment.startsWith('{')).join(' '),
    tags: Array.isArray(operation['tags']) ? operation['tags'].map(String).join(' ') : '',
    parameters: [...parameterNames(operation.id), ...parameterNames(path.id),
      ...segments.filter((segment) => segment.startsWith('{'))].join(' '),
    method: methodText(str(operation['method']) ?? ''),
    service: service ? `${str(service['name']) ?? ''} ${str(service['slug']) ?? ''}` : '',
  };
}

/**
 * The operations whose document may differ between two views, given the records written
 * between them (ids by collection; an id may be listed under a collection it is not in): the
 * operations written, those under a path written, under a service written (through its paths),
 * and those owning a parameter written, all as the old view and the new one have them.
 */
export function touchedOperations(before: VersionView, after: VersionView, written: ReadonlyMap<string, ReadonlySet<string>>): Set<string> {
  const touched = new Set<string>();
  const underPath = (view: VersionView, pathId: string) => {
    for (const operation of view.ownedBy('operations', pathId)) if (operation['pathId'] === pathId) touched.add(operation.id);
  };
  for (const view of [before, after]) {
    for (const id of written.get('operations') ?? []) if (view.byId('operations', id)) touched.add(id);
    for (const id of written.get('paths') ?? []) underPath(view, id);
    for (const id of written.get('services') ?? []) {
      if (!view.byId('services', id)) continue;
      for (const path of view.ownedBy('paths', id)) if (path['serviceId'] === id) underPath(view, path.id);
    }
    for (const { collection, parentField } of view.extensions) {
      for (const id of written.get(collection.name) ?? []) {
        const owner = view.byId(collection.name, id)?.[parentField];
        if (view.byId('operations', owner)) touched.add(owner as string);
      }
    }
    for (const id of written.get('parameters') ?? []) {
      const parameter = view.byId('parameters', id);
      const owner = parameter && parameterOwner(parameter);
      if (owner === undefined) continue;
      if (view.byId('operations', owner)) touched.add(owner);
      else underPath(view, owner);
    }
  }
  return touched;
}

/** What an operation is called, as indexed and embedded: its title (title.ts), or nothing. */
export function titleOf(operation: CatalogRecord): string {
  return operationTitle({ summary: operation['summary'], description: operation['description'] }) ?? '';
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
