// Starts Swagger UI on the document its page names (`data-url`: the service's own document on
// /docs, one service's export on a service's reference page), so no page needs an inline script.
// validatorUrl null: Swagger UI would otherwise send the document to an outside validator.
window.ui = SwaggerUIBundle({
  url: document.getElementById('swagger-ui').dataset.url,
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  displayOperationId: true,
  docExpansion: 'list',
});
