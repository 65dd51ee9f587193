// OpenAPI documents for the insights tests: a zoo whose server has an enum variable (two regions)
// and a base path, a literal path beside a templated one (/pets/mine, /pets/{petId}), a
// deprecated operation; and a keeper service the zoo's clients call.
const response = { 200: { description: 'OK' } };

export function zoo(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: { title: 'Zoo', version: '1.0.0' },
    servers: [{ url: 'https://{region}.zoo.example/v1', variables: { region: { default: 'eu', enum: ['eu', 'us'] } } }],
    paths: {
      '/pets': { get: { operationId: 'listPets', responses: response } },
      '/pets/mine': { get: { operationId: 'myPets', responses: response } },
      '/pets/{petId}': {
        parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
        get: { operationId: 'getPet', responses: response },
        delete: { operationId: 'deletePet', deprecated: true, responses: response },
      },
      '/feeding': { post: { operationId: 'feed', responses: response } },
    },
  };
}

export function keeper(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: { title: 'Keeper', version: '1.0.0' },
    servers: [{ url: 'https://keeper.example:8443' }],
    paths: { '/shifts': { get: { operationId: 'listShifts', responses: response } } },
  };
}

/** NDJSON access-log lines. */
export function ndjson(lines: readonly Record<string, unknown>[]): string {
  return lines.map((line) => JSON.stringify(line)).join('\n');
}
