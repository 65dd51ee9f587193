// Descriptions built to expand: a few kilobytes whose references stand for a tree of millions of
// objects, over each kind of component a reference may name, optionally padded up to
// megabytes. Shared by the specs that import them and the fuzz that generates them; described by
// small values (Built) so that a child process builds the large ones itself.
import { stringify as toYaml } from 'yaml';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const ref = (to: string): Json => ({ $ref: to });
const fan = (fanOut: number, item: (i: number) => Json): Record<string, Json> =>
  Object.fromEntries(Array.from({ length: fanOut }, (_, i) => [`k${i}`, item(i)]));
const ok = (): Json => ({ 200: { description: 'ok' } });

function document(paths: Record<string, Json>, components: Record<string, Json>): Record<string, Json> {
  return { openapi: '3.1.0', info: { title: 'Expanding', version: '1' }, paths, components };
}

/**
 * `components.callbacks` nesting `levels` levels, each referring `fanOut` times to the level
 * below; the one operation refers to the top level. Six levels of ten: 3.5 KB standing for ten
 * million objects.
 */
export function callbackBomb(levels: number, fanOut = 10): Record<string, Json> {
  const callbacks: Record<string, Json> = { c0: { '{$url}': { post: { responses: ok() } } } };
  for (let level = 1; level <= levels; level++) {
    callbacks[`c${level}`] = { '{$url}': { post: { responses: ok(), callbacks: fan(fanOut, () => ref(`#/components/callbacks/c${level - 1}`)) } } };
  }
  return document({ '/hook': { post: { responses: ok(), callbacks: { top: ref(`#/components/callbacks/c${levels}`) } } } }, { callbacks });
}

/** Response schemas chained through `#/components/responses/rN/content/…/schema`, each level's properties naming the level below `fanOut` times. */
export function responseSchemaBomb(levels: number, fanOut = 10): Record<string, Json> {
  const media = (schema: Json): Json => ({ content: { 'application/json': { schema } }, description: 'ok' });
  const responses: Record<string, Json> = { r0: media({ type: 'string' }) };
  for (let level = 1; level <= levels; level++) {
    responses[`r${level}`] = media({ type: 'object', properties: fan(fanOut, () => ref(`#/components/responses/r${level - 1}/content/application~1json/schema`)) });
  }
  return document({ '/r': { get: { responses: { 200: ref(`#/components/responses/r${levels}`) } } } }, { responses });
}

/** `level` components of one section, each naming the one below `fanOut` times; the operation names the top one. */
const SECTIONS = {
  callbacks: (levels: number, fanOut: number) => callbackBomb(levels, fanOut),
  responses: (levels: number, fanOut: number) => responseSchemaBomb(levels, fanOut),
  requestBodies: (levels: number, fanOut: number) => leveled(levels, 'requestBodies', (below) => ({
    content: { 'application/json': { schema: { type: 'object', properties: fan(fanOut, () => ref(`#/components/requestBodies/${below}/content/application~1json/schema`)) } } },
  }), { content: { 'application/json': { schema: { type: 'string' } } } }, (top) => ({ '/b': { post: { requestBody: ref(`#/components/requestBodies/${top}`), responses: ok() } } })),
  parameters: (levels: number, fanOut: number) => leveled(levels, 'parameters', (below) => ({
    name: 'q', in: 'query', schema: { type: 'object', properties: fan(fanOut, () => ref(`#/components/parameters/${below}/schema`)) },
  }), { name: 'q', in: 'query', schema: { type: 'string' } }, (top) => ({ '/p': { get: { parameters: [ref(`#/components/parameters/${top}`)], responses: ok() } } })),
  pathItems: (levels: number, fanOut: number) => leveled(levels, 'pathItems', (below) => ({
    post: { responses: ok(), callbacks: fan(fanOut, () => ({ '{$url}': ref(`#/components/pathItems/${below}`) })) },
  }), { post: { responses: ok() } }, (top) => ({ '/i': ref(`#/components/pathItems/${top}`) })),
  examples: (levels: number, fanOut: number) => leveled(levels, 'examples', (below) => ({
    value: fan(fanOut, () => ref(`#/components/examples/${below}/value`)),
  }), { value: 'bottom' }, (top) => ({ '/e': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { examples: { top: ref(`#/components/examples/${top}`) } } } } } } } })),
  // Schemas stay references (records of their own): no expansion, a legitimate import.
  schemas: (levels: number, fanOut: number) => leveled(levels, 'schemas', (below) => ({
    type: 'object', properties: fan(fanOut, () => ref(`#/components/schemas/${below}`)),
  }), { type: 'string' }, (top) => ({ '/s': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: ref(`#/components/schemas/${top}`) } } } } } } })),
};

export type Section = keyof typeof SECTIONS;
export const SECTION_NAMES = Object.keys(SECTIONS) as Section[];

function leveled(levels: number, section: string, level: (below: string) => Json, bottom: Json, paths: (top: string) => Record<string, Json>): Record<string, Json> {
  const components: Record<string, Json> = { [`${section[0]}0`]: bottom };
  for (let at = 1; at <= levels; at++) components[`${section[0]}${at}`] = level(`${section[0]}${at - 1}`);
  return document(paths(`${section[0]}${levels}`), { [section]: components });
}

/** A description to build: which section expands, how wide and deep, padded to about `padBytes` with schemas of text and numbers. */
export interface Built {
  name: string;
  section: Section;
  fanOut: number;
  levels: number;
  padBytes?: number;
  format?: 'json' | 'yaml';
}

/** Padding schemas of ~400 KB each (a long description and an enum of numbers), each a record within the default limits. */
function padded(built: Record<string, Json>, bytes: number): Record<string, Json> {
  const components = built['components'] as Record<string, Record<string, Json>>;
  const schemas: Record<string, Json> = { ...components['schemas'] };
  for (let i = 0; i * 400_000 < bytes; i++) {
    schemas[`Pad${i}`] = { type: 'integer', description: 'padding '.repeat(35_000), enum: Array.from({ length: 20_000 }, (_, n) => n * 7 + i) };
  }
  return { ...built, components: { ...components, schemas } };
}

/** The description `wanted` stands for, as the text of a request body and its media type. */
export function built(wanted: Built): { text: string; type: string } {
  const made = SECTIONS[wanted.section](wanted.levels, wanted.fanOut);
  const document = wanted.padBytes ? padded(made, wanted.padBytes) : made;
  return wanted.format === 'yaml'
    ? { text: toYaml(document, { aliasDuplicateObjects: false }), type: 'application/yaml' }
    : { text: JSON.stringify(document), type: 'application/json' };
}

/**
 * A description whose `info` holds `levels` objects inside one another (`{"n": {"n": …}}`), as
 * the text of a request body (written out, since stringifying it would recurse as deep).
 */
export function nestedText(levels: number, format: 'json' | 'yaml'): string {
  const key = format === 'json' ? '"n"' : 'n';
  const inner = `${`{${key}: `.repeat(levels)}1${'}'.repeat(levels)}`;
  return format === 'json'
    ? `{"openapi": "3.1.0", "info": {"title": "Deep", "version": "1", "x-deep": ${inner}}, "paths": {}}`
    : `openapi: 3.1.0\ninfo:\n  title: Deep\n  version: '1'\n  x-deep: ${inner}\npaths: {}\n`;
}
