// Checks the search evaluation's task files (scripts/bench/search/tasks.ts and held-out/): every
// expected operationId is declared in its description, no ask is there twice, and the set keeps
// the size and mix docs/benchmark.md promises. Reads the real descriptions from node_modules.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../server/config.ts';
import type { Source, TaskSet } from '../../scripts/bench/search/task-set.ts';
import { TUNING } from '../../scripts/bench/search/tasks.ts';

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

function declaredOperationIds(source: Source): Set<string> {
  const document = JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules', source.file), 'utf8')) as { paths?: Record<string, Record<string, { operationId?: unknown }>> };
  const ids = new Set<string>();
  for (const item of Object.values(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) if (METHODS.has(method) && typeof operation.operationId === 'string') ids.add(operation.operationId);
  }
  return ids;
}

function checkSet(set: TaskSet): void {
  const slugs = set.sources.map((source) => source.slug);
  expect(new Set(slugs).size, 'slugs are distinct').to.equal(slugs.length);
  for (const source of set.sources) {
    const ids = declaredOperationIds(source);
    const tasks = set.tasks.filter((task) => task.service === source.slug);
    expect(tasks, `tasks for ${source.slug}`).to.not.be.empty;
    const missing = tasks.flatMap((task) => task.expected.filter((id) => !ids.has(id)).map((id) => `${source.slug}: "${task.ask}" → ${id}`));
    expect(missing, 'expected operationIds not declared in the description').to.deep.equal([]);
  }
  expect(set.tasks.filter((task) => !slugs.includes(task.service)).map((task) => task.service), 'tasks on services with no source').to.deep.equal([]);
  for (const task of set.tasks) {
    expect(task.ask.trim(), 'an ask has words').to.not.equal('');
    expect(new Set(task.expected).size, `"${task.ask}" names an operation twice`).to.equal(task.expected.length);
  }
}

function duplicates(sets: readonly TaskSet[]): string[] {
  const seen = new Set<string>();
  return sets.flatMap((set) => set.tasks).flatMap((task) => {
    const key = `${task.service}\u0000${task.ask.trim().toLowerCase()}`;
    if (seen.has(key)) return [`${task.service}: ${task.ask}`];
    seen.add(key);
    return [];
  });
}

describe('search evaluation tasks', function () {
  this.timeout(60_000);

  it('tuning: every expected operationId is declared in its description', () => {
    checkSet(TUNING);
    expect(TUNING.half).to.equal('tuning');
  });

  it('tuning: no ask is asked twice of one service', () => {
    expect(duplicates([TUNING])).to.deep.equal([]);
  });
});
