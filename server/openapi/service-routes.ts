// The routes that describe the service: GET /v2/openapi.json (the generated document, built
// once and served from memory) and GET /docs (Swagger UI, its assets served from node_modules),
// both without credentials, and the documentation of both.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import helmet from 'helmet';
import { refuseOtherMethods } from '../http/allowed-methods.ts';
import { send } from '../http/respond.ts';
import { serviceRoute, type DocumentedRoute } from '../routes/documentation.ts';
import type { OpenApiDocument } from './document.ts';

export const OPENAPI_PATH = '/v2/openapi.json';
export const DOCS_PATH = '/docs';
const ASSETS_PATH = '/docs/assets';
/** The page's own script (starts Swagger UI on this document): a file, since the policy allows no inline script. */
const INIT_SCRIPT = 'catalog-init.js';
const OWN_ASSETS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'assets');

/** The routes this module mounts, as the document shows them. */
export const selfDescriptionRoutes: readonly DocumentedRoute[] = [
  serviceRoute({
    path: OPENAPI_PATH, operationId: 'getOpenApiDocument',
    summary: 'Get this OpenAPI document',
    description: 'The OpenAPI 3.1 document of the service, generated at start-up from its schemas and route table.',
    responses: [{ status: 200, description: 'This document.', schema: { type: 'object' } }],
  }),
  serviceRoute({
    path: DOCS_PATH, operationId: 'getDocsPage',
    summary: 'Open the API reference page',
    description: 'An HTML page (Swagger UI) that renders this document.',
    responses: [{ status: 200, description: 'The reference page.', mediaType: 'text/html', schema: { type: 'string' } }],
  }),
];

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Catalog Service API reference</title>
<link rel="icon" type="image/png" href="${ASSETS_PATH}/favicon-32x32.png">
<link rel="stylesheet" href="${ASSETS_PATH}/swagger-ui.css">
<link rel="stylesheet" href="${ASSETS_PATH}/catalog-swagger.css">
</head>
<body>
<div id="swagger-ui" data-url="${OPENAPI_PATH}"></div>
<script src="${ASSETS_PATH}/swagger-ui-bundle.js"></script>
<script src="${ASSETS_PATH}/${INIT_SCRIPT}"></script>
</body>
</html>
`;

/**
 * helmet's policy for the page, with one change: no `upgrade-insecure-requests`, which would
 * send a browser that reached the service over plain HTTP (a container, a LAN host) to HTTPS
 * for the page's own scripts. Scripts stay `'self'` only: the page has no inline script.
 */
const PAGE_POLICY = Object.entries({ ...helmet.contentSecurityPolicy.getDefaultDirectives(), 'upgrade-insecure-requests': null })
  .filter(([, values]) => values !== null)
  .map(([name, values]) => [name, ...[values].flat()].join(' '))
  .join('; ');

export function selfDescriptionRouter(document: OpenApiDocument): express.Router {
  const router = express.Router();
  const json = JSON.stringify(document);
  const assets = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  router.route(OPENAPI_PATH).get((_req, res) => {
    send(res, { status: 200, body: json, headers: { 'Content-Type': 'application/json; charset=utf-8' } });
  }).all(refuseOtherMethods(['GET']));
  router.route(DOCS_PATH).get((_req, res) => {
    send(res, { status: 200, body: PAGE, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': PAGE_POLICY } });
  }).all(refuseOtherMethods(['GET']));
  // Static files are not operations of the API: served, never documented.
  router.use(ASSETS_PATH, express.static(OWN_ASSETS, { index: false }), express.static(assets, { index: false }));
  return router;
}
