// A document cut into pieces to cross between threads, and put back together a piece at a
// time. Handed over whole (postMessage, v8.deserialize), a large one held the request's thread
// in one stretch of a second or more; piece by piece, that thread yields between pieces
// (slices.ts), so its longest stretch is one operation's or one schema's. The document is a
// tree (document.ts copies the dereferenced graph), so nothing shared is lost by the cut.
import v8 from 'node:v8';
import { isObject, type JsonObject } from '../json/values.ts';
import { Slices } from './slices.ts';

/** Each piece: where it goes (keys from the top), and either an object to fill or a serialised value. */
export type Pieces = { at: string[]; value?: Uint8Array }[];

/** How deep objects are cut: the top level's values, their entries (each path, each webhook), and components' entries (each schema). */
const depthBelow = (key: string): number => (key === 'components' ? 2 : 1);

/** The pieces of `document`, yielding to other work between them when cut on the request's thread. */
export async function piecesOf(document: JsonObject): Promise<Pieces> {
  const pieces: Pieces = [];
  const slices = new Slices();
  const cut = async (value: unknown, at: string[], depth: number): Promise<void> => {
    if (depth < 0 || !isObject(value)) {
      pieces.push({ at, value: v8.serialize(value) });
      await slices.pause();
      return;
    }
    pieces.push({ at });
    for (const [key, item] of Object.entries(value)) await cut(item, [...at, key], at.length === 0 ? depthBelow(key) : depth - 1);
  };
  await cut(document, [], 0);
  return pieces;
}

/** The document the pieces were cut from, in its key order, yielding to other work between pieces. */
export async function documentOf(pieces: Pieces): Promise<JsonObject> {
  const document: JsonObject = {};
  const slices = new Slices();
  for (const { at, value } of pieces) {
    if (at.length === 0) continue;
    let parent = document;
    for (const key of at.slice(0, -1)) parent = parent[key] as JsonObject;
    // A data property whatever the key (`__proto__` too), as deserialising makes it.
    Object.defineProperty(parent, at.at(-1)!, { value: value ? v8.deserialize(value) : {}, enumerable: true, writable: true, configurable: true });
    await slices.pause();
  }
  return document;
}
