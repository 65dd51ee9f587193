import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, repoRoot, withJwtSecret } from '../../server/config.ts';

const SECRET = 'x'.repeat(32);

describe('Configuration', () => {
  describe('defaults', () => {
    it('serves on 127.0.0.1:8080 with the embedded database and a 1 MiB body limit', () => {
      const config = loadConfig({});
      expect(config).to.include({ port: 8080, host: '127.0.0.1', mongodbUri: undefined, databaseName: 'catalog', bodyLimit: 1024 * 1024, logLevel: 'info', embeddedEngine: 'auto' });
    });

    it('rate-limits generously and serves metrics on the service port', () => {
      const config = loadConfig({});
      expect(config.rateLimit).to.deep.equal({ max: 6000, windowMs: 60_000 });
      expect(config.metrics).to.deep.equal({ port: undefined });
      expect(config.logFormat).to.equal('auto');
      expect(loadConfig({ RATE_LIMIT: 'off', METRICS: 'off' })).to.include({ rateLimit: undefined, metrics: undefined });
    });

    it('is frozen', () => {
      expect(Object.isFrozen(loadConfig({}))).to.equal(true);
    });
  });

  describe('MONGODB_URI', () => {
    it('takes the database name from the path', () => {
      expect(loadConfig({ MONGODB_URI: 'mongodb://db:27017/inventory?w=1', JWT_SECRET: SECRET }).databaseName).to.equal('inventory');
    });

    it('defaults the database name to catalog', () => {
      expect(loadConfig({ MONGODB_URI: 'mongodb+srv://cluster.example.net/', JWT_SECRET: SECRET }).databaseName).to.equal('catalog');
    });

    it('requires JWT_SECRET, since tokens must verify across instances', () => {
      expect(() => loadConfig({ MONGODB_URI: 'mongodb://db/' })).to.throw(ConfigError, /JWT_SECRET/);
    });
  });

  describe('bad values stop start-up with one line naming the variable', () => {
    const cases: [string, Record<string, string>][] = [
      ['PORT', { PORT: 'eighty' }],
      ['PORT', { PORT: '70000' }],
      ['BODY_LIMIT', { BODY_LIMIT: 'lots' }],
      ['BODY_LIMIT', { BODY_LIMIT: '0' }],
      ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
      ['LOG_FORMAT', { LOG_FORMAT: 'xml' }],
      ['RATE_LIMIT', { RATE_LIMIT: 'maybe' }],
      ['RATE_LIMIT_MAX', { RATE_LIMIT_MAX: '0' }],
      ['RATE_LIMIT_WINDOW_MS', { RATE_LIMIT_WINDOW_MS: 'soon' }],
      ['METRICS', { METRICS: 'yes' }],
      ['METRICS_PORT', { METRICS_PORT: '99999' }],
      ['MONGODB_URI', { MONGODB_URI: 'postgres://db/', JWT_SECRET: SECRET }],
      ['MONGODB_URI', { MONGODB_URI: 'mongodb://db/bad.name', JWT_SECRET: SECRET }],
      ['JWT_SECRET', { JWT_SECRET: 'short' }],
      ['EMBEDDED_DB', { EMBEDDED_DB: 'sqlite' }],
      ['EMBEDDED_DB_PORT', { EMBEDDED_DB_PORT: '-1' }],
      ['RECORD_MAX_BYTES', { RECORD_MAX_BYTES: 'big' }],
      ['RECORD_MAX_KEYS', { RECORD_MAX_KEYS: '0' }],
      ['RECORD_MAX_DEPTH', { RECORD_MAX_DEPTH: '1' }],
      ['DB_TIMEOUT_MS', { DB_TIMEOUT_MS: '10' }],
      ['API_KEY_CACHE_MS', { API_KEY_CACHE_MS: '-1' }],
      ['API_KEY_CACHE_MS', { API_KEY_CACHE_MS: '600001' }],
      ['DB_LONG_TIMEOUT_MS', { DB_LONG_TIMEOUT_MS: 'long' }],
      ['DB_LONG_TIMEOUT_MS', { DB_LONG_TIMEOUT_MS: '1000' }],
      ['SEARCH_MODEL', { SEARCH_MODEL: 'a model' }],
    ];
    for (const [variable, env] of cases) {
      it(`${variable}=${Object.values(env)[0]}`, () => {
        expect(() => loadConfig(env)).to.throw(ConfigError).with.property('message').that.matches(new RegExp(`^${variable} `)).and.not.include('\n');
      });
    }
  });

  it('bounds a record by the body limit, 50,000 keys and 64 levels, and database calls by 4 s, unless told otherwise', () => {
    expect(loadConfig({}).recordLimits).to.deep.equal({ maxBytes: 1024 * 1024, maxKeys: 50_000, maxDepth: 64 });
    expect(loadConfig({ BODY_LIMIT: '2mb' }).recordLimits.maxBytes).to.equal(2 * 1024 * 1024);
    expect(loadConfig({ RECORD_MAX_BYTES: '64kb', RECORD_MAX_KEYS: '500', RECORD_MAX_DEPTH: '16' }).recordLimits)
      .to.deep.equal({ maxBytes: 64 * 1024, maxKeys: 500, maxDepth: 16 });
    expect(loadConfig({}).dbTimeoutMs).to.equal(4000);
    expect(loadConfig({ DB_TIMEOUT_MS: '1500' }).dbTimeoutMs).to.equal(1500);
    expect(loadConfig({}).dbLongTimeoutMs).to.equal(300_000);
    expect(loadConfig({ DB_LONG_TIMEOUT_MS: '0' }).dbLongTimeoutMs).to.equal(0);
    expect(loadConfig({ DB_TIMEOUT_MS: '1500', DB_LONG_TIMEOUT_MS: '1500' }).dbLongTimeoutMs).to.equal(1500);
  });

  it('reads SEARCH_MODEL as off, a folder or a model id (the pinned default)', () => {
    expect(loadConfig({}).searchModel).to.deep.equal({ kind: 'id', id: 'bge-small-en-v1.5' });
    expect(loadConfig({ SEARCH_MODEL: 'off' }).searchModel).to.deep.equal({ kind: 'off' });
    expect(loadConfig({ SEARCH_MODEL: '/models/minilm' }).searchModel).to.deep.equal({ kind: 'folder', dir: '/models/minilm' });
    expect(loadConfig({ SEARCH_MODEL: 'sentence-transformers/all-MiniLM-L12-v2' }).searchModel).to.deep.equal({ kind: 'id', id: 'sentence-transformers/all-MiniLM-L12-v2' });
  });

  it('reads BODY_LIMIT with units', () => {
    expect(loadConfig({ BODY_LIMIT: '512kb' }).bodyLimit).to.equal(512 * 1024);
    expect(loadConfig({ BODY_LIMIT: '2mb' }).bodyLimit).to.equal(2 * 1024 * 1024);
  });

  it('refuses a generated JWT secret shorter than 32 bytes too', () => {
    expect(() => withJwtSecret(loadConfig({}), 'short')).to.throw(ConfigError, /JWT_SECRET/);
  });

  it('reads where mongodb-memory-server downloads from, so a remembered failed download holds for that source only', () => {
    expect(loadConfig({}).mongodDownload).to.deep.equal({ url: undefined, mirror: undefined });
    expect(loadConfig({ MONGOMS_DOWNLOAD_MIRROR: 'https://mirror.example', MONGOMS_DOWNLOAD_URL: 'https://mirror.example/mongod.tgz' }).mongodDownload)
      .to.deep.equal({ url: 'https://mirror.example/mongod.tgz', mirror: 'https://mirror.example' });
  });

  it('is the one reader of process.env in server/ (the FerretDB build only hands it on to go)', () => {
    const readers = fs.readdirSync(path.join(repoRoot, 'server'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && fs.readFileSync(path.join(repoRoot, 'server', file), 'utf8').includes('process.env'));
    expect(readers.sort()).to.deep.equal(['config.ts', path.join('database', 'embedded', 'build-ferretdb.ts')]);
  });
});
