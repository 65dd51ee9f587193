// How the tenancy collections store their documents: keyed by `_id`, which the interface never
// shows, and a taken unique index reported as a slug already in use.
import type { Collection } from 'mongodb';

export type Stored<T> = T & { _id: string };

/** A slug already in use (project slug, or version slug within a project and type). */
export class DuplicateSlug extends Error {}

const DUPLICATE_KEY = 11000;

export function isDuplicateKey(error: unknown): boolean {
  return (error as { code?: unknown }).code === DUPLICATE_KEY;
}

export async function insertUnique<T extends { _id: string }>(collection: Collection<T>, document: T, message: string): Promise<void> {
  try {
    await collection.insertOne(document as never);
  } catch (error) {
    if (isDuplicateKey(error)) throw new DuplicateSlug(message);
    throw error;
  }
}

export function withoutId<T>(document: Stored<T>): T;
export function withoutId<T>(document: Stored<T> | null): T | null;
export function withoutId<T>(document: Stored<T> | null): T | null {
  if (!document) return null;
  const { _id, ...rest } = document;
  return rest as T;
}
