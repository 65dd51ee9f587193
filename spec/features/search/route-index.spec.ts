// The search bench's own check (scripts/bench/search/route-check.ts), on two of its descriptions:
// after imports (each handed to the kept index) and edits of a few GET operations (patched into
// it), the route answers every task of Slack and Spotify, whole version and filtered, as an index
// built whole from the version's records, with the model's vectors, answers. The kept index had
// added the edited operations last and took the engine's best 100 in that order where scores
// tied, so fusion saw other candidates: here "get an album" and "show a message only one person
// in the channel can see" differed; on the bench's eighteen descriptions, "show me as away".
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../../server/config.ts';
import { titleOf } from '../../../server/search/documents.ts';
import { DEFAULT_MODEL_ID } from '../../../server/search/model/models.ts';
import { viewOf } from '../../../server/search/endpoints.ts';
import { VersionIndex } from '../../../server/search/ranking.ts';
import type { Ranker } from '../../../scripts/bench/search/rankers.ts';
import { routeDifferences } from '../../../scripts/bench/search/route-check.ts';
import { TUNING } from '../../../scripts/bench/search/tasks.ts';
import { pinnedModel } from '../../support/search-model.ts';
import { bearer, catalogForSuite, type SuiteCatalog } from '../../support/catalog.ts';

const SERVICES = ['slack', 'spotify'];

describe('search: the route answers as an index built whole from the same records (the bench\'s check)', function () {
  this.timeout(600_000);
  let made: SuiteCatalog;
  before(async () => { await pinnedModel(); });
  catalogForSuite((suite) => { made = suite; }, { SEARCH_MODEL: DEFAULT_MODEL_ID, DB_TIMEOUT_MS: '120000' });

  it('agrees on every task of Slack and Spotify after imports and edits', async () => {
    const { service, tenant } = made;
    for (const source of TUNING.sources.filter((one) => SERVICES.includes(one.slug))) {
      const imported = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=${source.slug}`).set(bearer(tenant.key))
        .set('Content-Type', 'application/json').send(fs.readFileSync(path.join(repoRoot, 'node_modules', source.file), 'utf8'));
      expect(imported.status, JSON.stringify(imported.body).slice(0, 300)).to.equal(201);
    }
    // As the bench's latency part does: three operations edited, each a write the kept index is patched with.
    const listed = await service.request.get(`${tenant.prefixes.byId}/operations`).query({ limit: 100 }).set(bearer(tenant.key));
    for (const [i, operation] of (listed.body.items as Array<{ id: string; method: string; summary?: string }>).filter((one) => one.method === 'get').slice(0, 3).entries()) {
      const patched = await service.request.patch(`${tenant.prefixes.byId}/operations/${operation.id}`).set(bearer(tenant.key)).send({ summary: `${operation.summary ?? ''} (edited ${i})` });
      expect(patched.status).to.equal(200);
    }
    const vectors = service.runtime.searchIndexes.vectors!;
    await vectors.settled();
    expect(service.runtime.searchIndexes.built.whole, 'the route\'s index was handed the imports and patched, never built whole').to.equal(0);

    const view = await viewOf(service.runtime.stores, tenant.version.id);
    const whole = await VersionIndex.of(view);
    whole.vectors = vectors.tableOf(view, titleOf);
    await vectors.fill(whole.vectors!);
    expect(whole.vectors!.complete).to.equal(true);
    const ranker: Ranker = {
      name: 'whole',
      rank: async (query, scope, limit) => (await whole.search({ query, limit, vector: (await vectors.query(query))!, ...(scope ? { serviceId: scope.serviceId } : {}) }))
        .map((hit) => String((hit['operation'] as { operationId: unknown }).operationId)),
    };
    const route = async (query: string, limit: number, slug: string | undefined) => {
      const res = await service.request.get(`${tenant.prefixes.byId}/search`).query({ q: query, limit, ...(slug ? { service: slug } : {}) }).set(bearer(tenant.key));
      expect(res.body.ranking, query).to.equal('hybrid');
      return (res.body.hits as Array<{ operation: { operationId: string } }>).map((hit) => hit.operation.operationId);
    };
    const services = new Map(view.of('services').map((record) => [String(record['slug']), record.id]));
    const tasks = TUNING.tasks.filter((task) => SERVICES.includes(task.service));
    expect(tasks.map((task) => task.ask)).to.include('show me as away');
    expect(await routeDifferences(route, ranker, tasks, services)).to.deep.equal([]);
  });
});
