// A version's search records saved to a JSON file and read back, so that the accuracy of a
// ranking change can be measured in seconds without the database (main.ts --save-view, then
// offline.ts). The file is a measurement aid, not a fixture: it is written from a real import.
import fs from 'node:fs';
import { SEARCH_COLLECTIONS, viewFrom, type VersionView } from '../../../server/search/endpoints.ts';
import type { CatalogRecord } from '../../../server/store/records.ts';

export function saveView(view: VersionView, file: string): void {
  fs.writeFileSync(file, JSON.stringify(Object.fromEntries(SEARCH_COLLECTIONS.map((name) => [name, view.of(name)]))));
}

export function loadView(file: string): VersionView {
  const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, CatalogRecord[]>;
  return viewFrom('saved', SEARCH_COLLECTIONS.map((name) => [name, saved[name] ?? []] as const));
}
