// Unit tests for server/records/list-query.ts: the list operation's query string, as Express's
// simple query parser hands it over (strings, arrays for repeated parameters), against the
// collections loaded from schemas/ (decisions.md, List).
import { expect } from 'chai';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../../server/records/list-query.ts';
import { listQueryReader } from '../support/list-query.ts';
import { InvalidRequest } from '../../server/errors.ts';
import { loadSchemaRegistry, type CompiledCollection } from '../../server/schemas/registry.ts';

const VERSION_ID = 'ver_01HZZZZZZZZZZZZZZZZZZZZZZZ';
const PATH_ID = 'path_01HAAAAAAAAAAAAAAAAAAAAAAA';
const SERVICE_ID = 'svc_01HBBBBBBBBBBBBBBBBBBBBBBB';
const OPERATION_ID = 'op_01HCCCCCCCCCCCCCCCCCCCCCCC';

describe('list query parameters (checked by the list\'s documented schemas, then read as the store\'s query)', () => {
  const schemas = loadSchemaRegistry();
  const paths = collectionNamed('paths');
  const requests = collectionNamed('requests');

  function collectionNamed(name: string): CompiledCollection {
    const found = schemas.collections.find((collection) => collection.name === name);
    if (!found) throw new Error(`schemas/collections.json has no ${name}`);
    return found;
  }

  /** The InvalidRequest `parse` throws; its details name `field`. */
  function refused(field: string, parse: () => unknown): string {
    let thrown: unknown;
    try {
      parse();
    } catch (error) {
      thrown = error;
    }
    expect(thrown, `expected a 400 naming ${field}`).to.be.instanceOf(InvalidRequest);
    const details = (thrown as InvalidRequest).details as Array<{ field: string; message: string }>;
    expect(details.map((detail) => detail.field)).to.deep.equal([field]);
    expect(details[0]!.message).to.be.a('string').that.is.not.empty;
    return details[0]!.message;
  }

  const readPaths = listQueryReader(schemas, paths);
  const readRequests = listQueryReader(schemas, requests);
  const parsePaths = (query: Record<string, unknown>) => readPaths(VERSION_ID, query);
  const parseRequests = (query: Record<string, unknown>) => readRequests(VERSION_ID, query);

  it('without parameters: first page of 50, id ascending, no filter', () => {
    expect(parsePaths({})).to.deep.equal({
      versionId: VERSION_ID, filters: {}, sort: [{ field: 'id', direction: 1 }], cursor: undefined, limit: 50,
    });
    expect(DEFAULT_LIMIT).to.equal(50);
    expect(MAX_LIMIT).to.equal(1000);
  });

  describe('limit', () => {
    it('takes integers from 1 to 1000', () => {
      for (const limit of [1, 7, 50, 999, 1000]) expect(parsePaths({ limit: String(limit) }).limit).to.equal(limit);
    });

    for (const limit of ['0', '1001', '-1', '1.5', 'abc', '', ' 5', '1e2', '+5', '10000', '0x10', 'Infinity', 'NaN']) {
      it(`refuses ${JSON.stringify(limit)}`, () => {
        expect(refused('limit', () => parsePaths({ limit }))).to.match(/integer from 1 to 1000/);
      });
    }

    it('refuses a repeated limit', () => {
      expect(refused('limit', () => parsePaths({ limit: ['5', '5'] }))).to.match(/once/);
    });
  });

  describe('cursor', () => {
    it('takes an id of the collection', () => {
      expect(parsePaths({ cursor: PATH_ID }).cursor).to.equal(PATH_ID);
    });

    const malformed: Record<string, string> = {
      'another kind of id': 'req_01HAAAAAAAAAAAAAAAAAAAAAAA',
      'a wrong prefix of the right length': 'xxxx_01HAAAAAAAAAAAAAAAAAAAAAAA',
      'one character short': PATH_ID.slice(0, -1),
      'one character long': `${PATH_ID}A`,
      'a character outside [0-9A-Za-z]': `${PATH_ID.slice(0, -1)}-`,
      'empty': '',
    };
    for (const [name, cursor] of Object.entries(malformed)) {
      it(`refuses ${name}`, () => {
        expect(refused('cursor', () => parsePaths({ cursor }))).to.include('path_');
      });
    }

    it('refuses a repeated cursor', () => {
      refused('cursor', () => parsePaths({ cursor: [PATH_ID, PATH_ID] }));
    });
  });

  describe('sort', () => {
    const key = (field: string, direction: 1 | -1 = 1) => ({ field, direction });

    it('`prop` ascending, `-prop` descending, id appended as the tie-breaker', () => {
      expect(parsePaths({ sort: 'path' }).sort).to.deep.equal([key('path'), key('id')]);
      expect(parsePaths({ sort: '-updatedAt' }).sort).to.deep.equal([key('updatedAt', -1), key('id')]);
    });

    it('comma-separated and repeated keys mean the same, and combine in order', () => {
      const expected = [key('path'), key('updatedAt', -1), key('summary'), key('id')];
      expect(parsePaths({ sort: 'path,-updatedAt,summary' }).sort).to.deep.equal(expected);
      expect(parsePaths({ sort: ['path', '-updatedAt', 'summary'] }).sort).to.deep.equal(expected);
      expect(parsePaths({ sort: ['path,-updatedAt', 'summary'] }).sort).to.deep.equal(expected);
    });

    it('an explicit id is kept with its direction and ends the sort', () => {
      expect(parsePaths({ sort: '-id' }).sort).to.deep.equal([key('id', -1)]);
      expect(parsePaths({ sort: 'summary,-id,path' }).sort).to.deep.equal([key('summary'), key('id', -1)]);
    });

    it('accepts every scalar top-level field of the record, and only those', () => {
      expect([...paths.sortable].sort()).to.deep.equal(['description', 'id', 'path', 'serviceId', 'summary', 'updatedAt', 'versionId']);
      expect([...requests.sortable].sort()).to.deep.equal(['contentMediaType', 'description', 'id', 'operationId', 'updatedAt', 'versionId']);
      for (const field of paths.sortable) expect(parsePaths({ sort: `-${field}` }).sort[0]).to.deep.equal(key(field, -1));
    });

    const refusedSorts: Record<string, unknown> = {
      'an unknown field': 'name',
      'a non-scalar field (kvStorage)': 'kvStorage',
      'a non-scalar field, descending': '-kvStorage',
      'a field given twice': 'path,-path',
      'a field given twice across repeated parameters': ['summary', 'summary'],
      'an empty value': '',
      'an empty item': 'path,',
      'an empty item in the middle': 'path,,summary',
      'an empty repeated item': ['path', ''],
      'a bare minus': '-',
      'a double minus': '--path',
      'a plus prefix': '+path',
      'a nested field': 'kvStorage.x',
      'a field with spaces': ' path',
    };
    for (const [name, sort] of Object.entries(refusedSorts)) {
      it(`refuses ${name}`, () => refused('sort', () => parsePaths({ sort })));
    }

    it('names the sortable fields when it refuses one', () => {
      expect(refused('sort', () => parsePaths({ sort: 'kvStorage' }))).to.include('summary').and.include('updatedAt');
    });

    it('Requests: its own scalar fields', () => {
      const parsed = parseRequests({ sort: 'contentMediaType,-operationId' });
      expect(parsed.sort).to.deep.equal([key('contentMediaType'), key('operationId', -1), key('id')]);
      for (const field of ['headers', 'schema', 'examples', 'descriptionBlocks', 'kvStorage', 'path']) {
        refused('sort', () => parseRequests({ sort: field }));
      }
    });
  });

  describe('filters', () => {
    it('Paths: serviceId by equality', () => {
      expect(parsePaths({ serviceId: SERVICE_ID }).filters).to.deep.equal({ serviceId: SERVICE_ID });
    });

    it('Requests: operationId by equality', () => {
      expect(parseRequests({ operationId: OPERATION_ID }).filters).to.deep.equal({ operationId: OPERATION_ID });
    });

    it('refuses a malformed value, naming the filter', () => {
      refused('serviceId', () => parsePaths({ serviceId: 'svc_short' }));
      refused('serviceId', () => parsePaths({ serviceId: OPERATION_ID }));
      refused('serviceId', () => parsePaths({ serviceId: '' }));
      refused('operationId', () => parseRequests({ operationId: SERVICE_ID }));
    });

    it('refuses a repeated filter', () => {
      refused('serviceId', () => parsePaths({ serviceId: [SERVICE_ID, SERVICE_ID] }));
    });

    it("refuses the other collection's filter", () => {
      refused('operationId', () => parsePaths({ operationId: OPERATION_ID }));
      refused('serviceId', () => parseRequests({ serviceId: SERVICE_ID }));
    });
  });

  describe('unknown parameters', () => {
    // Express's simple parser keeps bracketed names as they are, so operator injection
    // arrives as an unknown parameter name.
    for (const name of ['page', 'offset', 'skip', 'filter', 'summary', 'serviceId[$ne]', 'sort[$gt]', 'limit[]', '$where', 'constructor', '__proto__', 'Sort']) {
      it(`refuses ${JSON.stringify(name)}, naming it`, () => {
        const query = Object.create(null) as Record<string, unknown>;
        query[name] = 'x';
        const message = refused(name, () => parsePaths(query));
        expect(message).to.include('cursor, limit, sort, updatedAfter, serviceId, path');
      });
    }

    it('refuses an unknown parameter even next to valid ones', () => {
      refused('extra', () => parsePaths({ limit: '5', sort: 'path', extra: '1' }));
    });

    it('does not see parameters inherited from a prototype', () => {
      expect(parsePaths(Object.create({ unknown: 'x' }) as Record<string, unknown>).limit).to.equal(50);
    });
  });
});
