// Starts Swagger UI on the /docs page with the service's own document. validatorUrl null:
// Swagger UI would otherwise send the document to an outside validator.
window.ui = SwaggerUIBundle({
  url: '/v2/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  displayOperationId: true,
  docExpansion: 'list',
});
