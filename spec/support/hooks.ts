// Root hooks: one database server for the whole run, a line saying which server it is, and the
// run's database dropped after each file's suites.
import { dropTestRecords, startTestDatabase, stopTestDatabase } from './database.ts';

export const mochaHooks = {
  async beforeAll(this: Mocha.Context): Promise<void> {
    // The first run on a new machine may build FerretDB from source: minutes, not seconds.
    this.timeout(30 * 60 * 1000);
    const database = await startTestDatabase();
    process.stdout.write(`  Tests run against ${database.server.label}, database ${database.name}\n`);
    // Every file is loaded by now, so each top-level suite can be given a last after hook. Why
    // drop: FerretDB scans a whole collection for any filter but one `_id`, so every read of a
    // suite cost what all the suites before it had written (the fuzz suite, 4.5 s alone, took
    // more than 11 minutes at the end of a full run). Each service creates its indexes when it
    // opens, so the next suite starts on an empty database just as a first one does.
    for (const suite of this.test?.parent?.suites ?? []) {
      suite.afterAll('drop what the suite wrote', async function (this: Mocha.Context) {
        this.timeout(60 * 1000);
        await dropTestRecords();
      });
    }
  },
  async afterAll(this: Mocha.Context): Promise<void> {
    this.timeout(60 * 1000);
    await stopTestDatabase();
  },
};
