// Checks the search evaluation's task files (scripts/bench/search/tasks.ts and held-out/): every
// expected operationId is declared in its description, no ask is there twice, and the set keeps
// the size and mix docs/benchmark.md promises. Reads the real descriptions from node_modules.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../server/config.ts';
import type { Source, TaskSet } from '../../scripts/bench/search/task-set.ts';
import { HELD_OUT } from '../../scripts/bench/search/held-out/index.ts';
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

  it('held-out: every expected operationId is declared in its description', () => {
    checkSet(HELD_OUT);
    expect(HELD_OUT.half).to.equal('held-out');
  });

  it('no ask is asked twice of one service, in either half', () => {
    expect(duplicates([TUNING, HELD_OUT])).to.deep.equal([]);
  });

  it('the held-out APIs are not among the tuning ones, by slug or by description file', () => {
    const tuning = new Set(TUNING.sources.flatMap((source) => [source.slug, source.file]));
    expect(HELD_OUT.sources.filter((source) => tuning.has(source.slug) || tuning.has(source.file))).to.deep.equal([]);
  });

  it('has at least 12 APIs, 300 tasks, 150 held-out on 5 APIs, and about half of the asks phrased by intent', () => {
    const tasks = [...TUNING.tasks, ...HELD_OUT.tasks];
    expect(TUNING.sources.length + HELD_OUT.sources.length).to.be.at.least(12);
    expect(HELD_OUT.sources.length).to.be.at.least(5);
    expect(tasks.length).to.be.at.least(300);
    expect(HELD_OUT.tasks.length).to.be.at.least(150);
    const intentShare = tasks.filter((task) => task.phrasing === 'intent').length / tasks.length;
    expect(intentShare).to.be.within(0.4, 0.6);
    // Each half has both phrasings in numbers worth reporting apart.
    for (const set of [TUNING, HELD_OUT]) expect(set.tasks.filter((task) => task.phrasing === 'plain').length, set.half).to.be.at.least(set.tasks.length / 4);
  });
});
