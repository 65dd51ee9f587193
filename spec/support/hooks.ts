// Root hooks: one database server and one database for the whole run, and a line saying which
// server it is. Files share the database as tenants share a service: each makes its own project
// and versions, and a file that must see nothing of the others' records opens a database of its
// own (ownDatabase in database.ts). Nothing is dropped between files: the run's database grows
// as a catalog does, and every answer must stay as fast as what it returns (docs/database.md).
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
