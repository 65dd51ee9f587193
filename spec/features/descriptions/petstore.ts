// A small OpenAPI 3.0 document that uses what the import maps: servers at three levels,
// security schemes, schemas referring to each other, path- and operation-level parameters,
// several media types, a default response, a header reference, examples and vendor extensions.
export function petstore(): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: 'Pet Store', version: '1.2.0', description: 'Pets *for sale*.', 'x-audience': 'public' },
    servers: [{ url: 'https://{region}.pets.example/v1', variables: { region: { default: 'eu', enum: ['eu', 'us'], description: 'Where' } } }],
    tags: [{ name: 'pets', description: 'Everything about pets' }],
    security: [{ apiKey: [] }],
    paths: {
      '/pets': {
        get: {
          operationId: 'listPets',
          summary: 'List pets',
          tags: ['pets'],
          parameters: [
            { name: 'limit', in: 'query', description: 'How many', schema: { type: 'integer', maximum: 100, nullable: true } },
            { $ref: '#/components/parameters/Trace' },
          ],
          responses: {
            200: {
              description: 'A page of pets',
              headers: { 'X-Next': { $ref: '#/components/headers/Next' }, 'X-Rate': { description: 'Calls left', schema: { type: 'integer' } } },
              content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } } },
            },
            default: { $ref: '#/components/responses/Problem' },
          },
          'x-rate-limited': true,
        },
        post: {
          operationId: 'createPet',
          summary: 'Add a pet',
          tags: ['pets'],
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/NewPet' }, examples: { tom: { $ref: '#/components/examples/Tom' } } },
              'application/x-www-form-urlencoded': { schema: { $ref: '#/components/schemas/NewPet' } },
            },
          },
          responses: { 201: { description: 'Created', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } },
          security: [{ bearer: [] }],
        },
      },
      '/pets/{petId}': {
        summary: 'One pet',
        parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
        servers: [{ url: 'https://pets-eu.example/v1' }],
        get: {
          operationId: 'getPet',
          deprecated: true,
          externalDocs: { url: 'https://docs.pets.example/get', description: 'More' },
          responses: { 200: { description: 'The pet', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } }, 404: { description: 'No such pet' } },
        },
        delete: {
          operationId: 'deletePet',
          servers: [{ url: 'https://admin.pets.example' }],
          responses: { 204: { description: 'Gone' } },
        },
      },
    },
    components: {
      schemas: {
        NewPet: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, tag: { type: 'string', nullable: true } } },
        Pet: { allOf: [{ $ref: '#/components/schemas/NewPet' }, { type: 'object', properties: { id: { type: 'integer', format: 'int64' } } }] },
        Problem: { type: 'object', properties: { message: { type: 'string' } }, 'x-internal': false },
      },
      parameters: { Trace: { name: 'X-Trace', in: 'header', schema: { type: 'string' } } },
      responses: { Problem: { description: 'Something went wrong', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } } },
      headers: { Next: { description: 'Cursor of the next page', schema: { type: 'string' } } },
      examples: { Tom: { summary: 'A cat', value: { name: 'Tom' } } },
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key', 'x-issuer': 'pets' },
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      },
    },
  };
}
