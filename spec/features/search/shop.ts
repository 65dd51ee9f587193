// An OpenAPI document for the search and MCP tests: service-level security overridden per
// operation, an explicitly empty requirement, alternatives, an apiKey whose parameter name
// differs from the scheme's name, servers at three levels, parameters and a referenced schema.
export function shop(title = 'Shop'): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: { title, version: '1.0.0' },
    servers: [{ url: 'https://api.shop.example/v1' }],
    security: [{ shopKey: [] }],
    paths: {
      '/invoices': {
        get: {
          operationId: 'listInvoices', summary: 'List invoices', tags: ['billing'],
          parameters: [{ name: 'customer', in: 'query', schema: { type: 'string' } }],
          responses: { 200: { description: 'Invoices', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Invoice' } } } } } },
        },
        post: {
          operationId: 'createInvoice', summary: 'Create an invoice',
          security: [{ oauth: ['invoices:write'] }],
          servers: [{ url: 'https://write.shop.example/v1' }],
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Invoice' } } } },
          responses: { 201: { description: 'Created' } },
        },
      },
      '/invoices/{invoiceId}': {
        servers: [{ url: 'https://invoices.shop.example' }],
        parameters: [{ name: 'invoiceId', in: 'path', required: true, schema: { type: 'string' } }],
        get: {
          operationId: 'getInvoice', summary: 'One invoice', description: 'Returns an invoice with its lines.',
          security: [{ shopKey: [] }, { bearer: [] }],
          responses: { 200: { description: 'The invoice', content: { 'application/json': { schema: { $ref: '#/components/schemas/Invoice' } } } } },
        },
      },
      '/status': {
        get: {
          operationId: 'getStatus', summary: 'Health of the shop', description: 'Says whether invoices can be made.',
          security: [],
          responses: { 200: { description: 'Up' } },
        },
      },
    },
    components: {
      schemas: {
        Invoice: { type: 'object', properties: { id: { type: 'string' }, lines: { type: 'array', items: { $ref: '#/components/schemas/Line' } } } },
        Line: { type: 'object', properties: { amount: { type: 'number' } } },
      },
      securitySchemes: {
        shopKey: { type: 'apiKey', in: 'header', name: 'X-Shop-Key' },
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://auth.shop.example/token', scopes: { 'invoices:write': 'Write invoices' } } } },
      },
    },
  };
}
