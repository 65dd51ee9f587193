// Root hooks: one database for the whole run, and a line saying which server it is.
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
