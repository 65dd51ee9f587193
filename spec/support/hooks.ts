// Root hooks: one database server for the whole run and a line saying which server it is. The
// run's database is not dropped between files: with FerretDB's reads served by the indexes
// (docs/database.md) a suite's reads cost what its own versions hold, not what the suites before
// it wrote, and dropping cost more than it saved (unit specs, pagination and fuzz: 4 m 43 s
// without the drops, 7 m 07 s with them, on the same loaded machine).
import { startTestDatabase, stopTestDatabase } from './database.ts';

export const mochaHooks = {
  async beforeAll(this: Mocha.Context): Promise<void> {
    // The first run on a new machine may build FerretDB from source: minutes, not seconds.
    this.timeout(30 * 60 * 1000);
    const database = await startTestDatabase();
    process.stdout.write(`  Tests run against ${database.server.label}, database ${database.name}\n`);
  },
  async afterAll(this: Mocha.Context): Promise<void> {
    this.timeout(60 * 1000);
    await stopTestDatabase();
  },
};
