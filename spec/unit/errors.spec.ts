import { expect } from 'chai';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import express from 'express';
import supertest from 'supertest';
import { pino } from 'pino';
import { MongoNetworkError, MongoNetworkTimeoutError, MongoServerError } from 'mongodb';
import { repoRoot } from '../../server/config.ts';
import {
  ApiError, Conflict, ERROR_CLASSES, Forbidden, HeadersTooLarge, ImportsBusy, InternalError, InvalidRequest, MethodNotAllowed, PayloadTooLarge,
  ReadOnlyCredential, RecordNotFound, RouteNotFound, UnknownAddress, ServiceUnavailable, TooManyRequests, Unauthorized, UnsupportedMediaType, toApiError,
} from '../../server/errors.ts';
import { renderError } from '../../server/http/errors.ts';
import { requestLog } from '../../server/http/request-log.ts';

/** One instance of every error class, as the service raises them. */
const EXAMPLES: ApiError[] = [
  InvalidRequest.field('/path', 'must match pattern "^/"'), new PayloadTooLarge(), new UnsupportedMediaType(), new Unauthorized(),
  new Forbidden(), new ReadOnlyCredential(), UnknownAddress.version('versionSlug', 'branch', 'mian', 'demo', 'http'), new RecordNotFound('Path not found'), new RouteNotFound(), new MethodNotAllowed(['GET']), new Conflict(),
  new HeadersTooLarge(), new TooManyRequests(30), new ServiceUnavailable(), ImportsBusy.queueFull(), new InternalError(),
];

/** The rows of docs/interface.md's status table ("Status codes and errors"): status and `error` text. */
function documentedRows(text: string): Array<{ status: number; error: string }> {
  const section = text.slice(text.indexOf('## Status codes and errors'));
  const table = section.slice(section.indexOf('| status | `error` | when |'), section.indexOf('\n\n', section.indexOf('| status |')));
  return [...table.matchAll(/^\| (\d{3}) \| `([^`]+)`/gm)].map(([, status, error]) => ({ status: Number(status), error: error! }));
}


/** The driver's connection-pool errors, from their own module (its index does not export them). */
function driverErrors(): { WaitQueueTimeoutError: new (message: string, address: string) => Error } {
  return createRequire(import.meta.url)('mongodb/lib/cmap/errors.js') as never;
}

describe('Errors: the status table', () => {
  const rows = documentedRows(fs.readFileSync(path.join(repoRoot, 'docs/interface.md'), 'utf8'));
  const documents = (error: ApiError) => (row: { status: number; error: string }): boolean =>
    // The not-found row of records stands for every `<Kind> not found`; its first example is `Path not found`.
    row.status === error.status && (row.error === error.error || (error instanceof RecordNotFound && row.error === 'Path not found'));

  it('has an example here for every error class', () => {
    expect(EXAMPLES.map((error) => error.constructor)).to.have.members([...ERROR_CLASSES]);
  });

  it('reads the table from docs/interface.md', () => {
    expect(rows.length).to.be.at.least(ERROR_CLASSES.length);
  });

  for (const error of EXAMPLES) {
    it(`${error.constructor.name} (${error.status} ${error.error}) is a row of docs/interface.md's status table`, () => {
      expect(rows.some(documents(error)), JSON.stringify(rows)).to.equal(true);
    });
  }

  it('documents no row that no error class answers', () => {
    const unanswered = rows.filter((row) => !EXAMPLES.some((error) => documents(error)(row)));
    expect(unanswered).to.deep.equal([]);
  });

  it('renders exactly error and, when given, details', () => {
    expect(new Forbidden().body()).to.deep.equal({ error: 'Forbidden' });
    expect(InvalidRequest.field('limit', 'must be an integer').body()).to.deep.equal({
      error: 'Invalid request', details: [{ field: 'limit', message: 'must be an integer' }],
    });
  });
});

describe('Errors: translating what others throw', () => {
  const cases: Array<[string, unknown, number, string]> = [
    ['body-parser: too large', Object.assign(new Error('request entity too large'), { type: 'entity.too.large' }), 413, 'Invalid request'],
    ['body-parser: bad JSON', Object.assign(new SyntaxError('Unexpected token'), { type: 'entity.parse.failed' }), 400, 'Invalid request'],
    ['body-parser: charset', Object.assign(new Error('unsupported charset'), { type: 'charset.unsupported' }), 415, 'Invalid request'],
    ['Express: bad percent-encoding', new URIError('URI malformed'), 400, 'Invalid request'],
    ['the driver: connection lost', new MongoNetworkError('connection 3 to 127.0.0.1:27017 closed'), 503, 'Service Unavailable'],
    // Transient database errors were once 500.
    ['FerretDB on SQLite: database is locked', new MongoServerError({ errmsg: 'database is locked (5) (SQLITE_BUSY)', code: 1 }), 503, 'Service Unavailable'],
    ['MongoDB: a write labelled retryable', new MongoServerError({ errmsg: 'not primary', code: 10107, errorLabels: ['RetryableWriteError'] }), 503, 'Service Unavailable'],
    ['MongoDB: a transient transaction error', new MongoServerError({ errmsg: 'write conflict', code: 112, errorLabels: ['TransientTransactionError'] }), 503, 'Service Unavailable'],
    ['MongoDB: maxTimeMS expired', new MongoServerError({ errmsg: 'operation exceeded time limit', code: 50 }), 503, 'Service Unavailable'],
    ['the driver: a bulk write interrupted when its monitor lost the server', new MongoServerError({ errmsg: 'Connection to 127.0.0.1:27018 interrupted due to server monitor timeout', errorLabels: ['PoolRequestedRetry'] }), 503, 'Service Unavailable'],
    ['the driver: socket timeout (a frozen database)', new MongoNetworkTimeoutError('connection 1 to 127.0.0.1:27018 timed out'), 503, 'Service Unavailable'],
    // Seen by npm run chaos and the frozen-database test under load: the socket died under the driver.
    ['a database socket ended by the other party', Object.assign(new Error('This socket has been ended by the other party'), { code: 'EPIPE' }), 503, 'Service Unavailable'],
    // Seen on POST /mcp and on an import against a frozen database: no pooled connection within
    // DB_TIMEOUT_MS (the driver's WaitQueueTimeoutError, not exported by its index: its own module's).
    ['the driver: no pooled connection in time', new (driverErrors().WaitQueueTimeoutError)('Timed out while checking out a connection from connection pool', '127.0.0.1:27017'), 503, 'Service Unavailable'],
    ['MongoDB: a duplicate key is no passing trouble', new MongoServerError({ errmsg: 'E11000', code: 11000 }), 500, 'Internal Server Error'],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'x')"), 500, 'Internal Server Error'],
    ['a thrown string', 'oops', 500, 'Internal Server Error'],
  ];
  for (const [what, thrown, status, error] of cases) {
    it(`${what} → ${status} ${error}`, () => {
      const translated = toApiError(thrown).error;
      expect([translated.status, translated.error]).to.deep.equal([status, error]);
    });
  }

  it('a 503 tells the client when to retry (Retry-After)', async () => {
    const app = express();
    app.use(requestLog(pino({ level: 'silent' })));
    app.get('/busy', () => {
      throw new MongoServerError({ errmsg: 'database is locked (5) (SQLITE_BUSY)', code: 1 });
    });
    app.use(renderError);
    const res = await supertest(app).get('/busy');
    expect(res.status).to.equal(503);
    expect(res.headers['retry-after']).to.equal('1');
    expect(res.body).to.deep.equal({ error: 'Service Unavailable' });
  });

  it('never shows the client what went wrong inside, and logs it instead', async () => {
    const logged: string[] = [];
    const logger = pino({ level: 'error' }, { write: (line: string) => logged.push(line) });
    const app = express();
    app.use(requestLog(logger));
    app.get('/boom', () => {
      throw new Error('driver said: E11000 at mongodb://admin:hunter2@db/catalog');
    });
    app.use(renderError);
    const res = await supertest(app).get('/boom');
    expect(res.status).to.equal(500);
    expect(res.text).to.equal('{"error":"Internal Server Error"}');
    expect(logged.join('')).to.include('hunter2').and.include(String(res.headers['x-request-id']));
  });
});
