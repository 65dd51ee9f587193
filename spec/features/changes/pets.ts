// A small API, as the exporter writes it (OpenAPI 3.1), that each rule's test changes in one place.
export type Doc = Record<string, any>;

export function pets(): Doc {
  return {
    openapi: '3.1.0',
    info: { title: 'Pets', version: '1.0.0' },
    servers: [{ url: 'https://pets.example/v1' }, { url: 'https://eu.pets.example/v1' }],
    security: [{ key: [] }],
    paths: {
      '/pets': {
        get: {
          operationId: 'listPets',
          parameters: [
            { name: 'limit', in: 'query', required: false, schema: { type: 'integer', format: 'int32' } },
            { name: 'kind', in: 'query', required: false, schema: { type: 'string', enum: ['cat', 'dog'] } },
          ],
          responses: { 200: { description: 'Pets', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } } } } },
        },
        post: {
          operationId: 'addPet',
          requestBody: { required: false, content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
          responses: { 201: { description: 'Added', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } }, 400: { description: 'Bad' } },
        },
      },
      '/pets/{petId}': {
        get: {
          operationId: 'getPet',
          parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            200: { description: 'A pet', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } }, 'application/xml': { schema: { $ref: '#/components/schemas/Pet' } } } },
          },
        },
      },
    },
    components: {
      schemas: {
        Pet: {
          type: 'object',
          required: ['id', 'name'],
          properties: {
            id: { type: 'integer', format: 'int64' },
            name: { type: 'string' },
            tag: { type: 'string' },
            status: { type: 'string', enum: ['available', 'sold'] },
          },
        },
      },
      securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' }, oauth: { type: 'oauth2', flows: {} } },
    },
  };
}

/** A copy of pets() changed by `edit`. */
export function petsWith(edit: (doc: Doc) => void): Doc {
  const doc = pets();
  edit(doc);
  return doc;
}
