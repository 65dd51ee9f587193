// What the pages room adds to the service's OpenAPI document: its routes, each as mounted, under
// the Pages tag. The pages answer HTML, or Markdown with `Accept: text/markdown`; they take the
// session cookie of a sign-in or a bearer credential, as the interface does.
import type { DocumentedRoute, Schema, Tag } from '../routes/documentation.ts';
import { SERVICE_TAG } from '../routes/documentation.ts';
import { SCHEMA_BASE } from '../schemas/registry.ts';
import { WELL_KNOWN_API_CATALOG } from './discovery.ts';
import { SIGN_IN_PATH, SIGN_OUT_PATH } from './sign-in.ts';
import { PAGE_ROUTES } from './urls.ts';

export const PAGES_TAG: Tag = {
  name: 'Pages',
  description: 'The catalog for people: server-rendered pages (home, version, search, service, operation, changes), each with a Markdown twin for agents (`Accept: text/markdown`), opened by a sign-in session cookie or a bearer credential; and the RFC 9727 API catalog. See docs/pages.md.',
};

const IDS = `${SCHEMA_BASE}defs/ids.json#/$defs/`;
const VERSION: Readonly<Record<string, Schema>> = { projectRef: { $ref: `${IDS}projectRef` }, versionType: { $ref: `${IDS}versionType` }, versionSlug: { $ref: `${IDS}versionSlug` } };
const SERVICE = { ...VERSION, service: { $ref: `${IDS}serviceSlug` } };
const PAGE_ANSWER = (description: string) => [{ status: 200, description: `${description} HTML, or Markdown with \`Accept: text/markdown\`.`, mediaType: 'text/html', schema: { type: 'string' } }];
const FORM = { schema: { type: 'object', additionalProperties: { type: 'string' } }, mediaTypes: ['application/x-www-form-urlencoded'] };

function page(operationId: string, path: string, params: Readonly<Record<string, Schema>>, summary: string, description: string, extra: Partial<DocumentedRoute> = {}): DocumentedRoute {
  return {
    method: 'GET', path, operationId, tag: PAGES_TAG.name, access: 'read', params, summary,
    description: `${description} Signed out, a browser is sent to sign-in (303) and an agent gets 401.`,
    responses: PAGE_ANSWER('The page.'), errors: [400, 401, 403, 404, 429], ...extra,
  };
}

// Sign-in and sign-out take no bearer credential: they sit with the other routes without one (Service).
export const PAGES_DOCUMENTED_ROUTES: readonly DocumentedRoute[] = [
  {
    method: 'GET', path: SIGN_IN_PATH, operationId: 'getSignInPage', tag: SERVICE_TAG.name, access: 'none', summary: 'The sign-in form',
    description: 'A plain form: one password field for a project API key or personal access token, posted once; it sets a nonce cookie its token is bound to.',
    query: [{ name: 'next', description: 'The page to return to after sign-in (a /catalog path).', schema: { type: 'string' } }],
    responses: PAGE_ANSWER('The form.'), errors: [],
  },
  {
    method: 'POST', path: SIGN_IN_PATH, operationId: 'signIn', tag: SERVICE_TAG.name, access: 'none', summary: 'Sign in: start a session',
    description: 'Fields `credential`, `signInToken` (from the form) and `next`. `Origin` must be this service. Answers 303 with an HttpOnly, SameSite=Lax cookie naming a server-side session (PAGE_SESSION_MS); the credential is checked again on every request. A refused sign-in shows the form again (401 or 403).',
    body: FORM, responses: [{ status: 303, description: 'Signed in: on to `next`.' }], errors: [401, 403],
  },
  {
    method: 'POST', path: SIGN_OUT_PATH, operationId: 'signOut', tag: SERVICE_TAG.name, access: 'none', summary: 'Sign out: end the session on the server',
    description: 'Field `formToken` (the session\'s, on every page); `Origin` must be this service.',
    body: FORM, responses: [{ status: 303, description: 'Signed out: on to sign-in.' }], errors: [403],
  },
  page('getHomePage', PAGE_ROUTES.home, {}, 'Home: projects and versions', 'The projects the credential reaches, each with its branches and environments.'),
  page('getVersionPage', PAGE_ROUTES.version, VERSION, 'A version: its services', 'Services with summary, operation count and traffic; a search box; the switch between the project\'s versions.'),
  page('getSearchPage', PAGE_ROUTES.search, VERSION, 'Search results', 'Ranked as `GET …/search`; each hit with method, path, title, service and credential.', {
    query: [{ name: 'q', description: 'Words to look for.', schema: { type: 'string' } }, { name: 'service', description: 'Only this service (slug).', schema: { type: 'string' } }],
  }),
  page('getServicePage', PAGE_ROUTES.service, SERVICE, 'A service', 'Operations by tag and path with method, deprecation and traffic status, 200 a page; shadow endpoints; servers; links to the export and Swagger UI.', {
    query: [{ name: 'page', description: 'Which page of operations (by path), from 1.', schema: { type: 'integer', minimum: 1 } }],
  }),
  page('getOperationPage', PAGE_ROUTES.operation, { ...SERVICE, operation: { type: 'string', minLength: 1 } }, 'An operation and how to call it', 'Method, full URL, description, parameters, bodies, responses, credentials (where each goes, scopes, how to get one), request samples, traffic; with `against`, its changes from that version.', {
    query: [{ name: 'against', description: 'Another version of the project, `type/slug`.', schema: { type: 'string' } }],
  }),
  page('getChangesPage', PAGE_ROUTES.changes, SERVICE, "A service's changes", 'From the version `against` to this one, breaking first (the changes report).', {
    query: [{ name: 'against', description: 'Another version of the project, `type/slug`.', schema: { type: 'string' } }],
  }),
  page('getServiceExport', PAGE_ROUTES.exportApi, { ...SERVICE, format: { enum: ['json', 'yaml'] } }, "The service's OpenAPI export", 'As `GET …/services/{id}/openapi`, opened with the session.', {
    responses: [{ status: 200, description: 'The OpenAPI document (JSON or YAML).', schema: { type: 'object' } }],
  }),
  page('getServiceReferencePage', PAGE_ROUTES.reference, SERVICE, 'Swagger UI on one service', 'The full reference with try-it, fed this one service\'s export.'),
  {
    method: 'GET', path: WELL_KNOWN_API_CATALOG, operationId: 'getApiCatalog', tag: PAGES_TAG.name, access: 'read', summary: 'The API catalog (RFC 9727)',
    description: 'A linkset (`application/linkset+json`) with one entry per service of each version the credential reaches: `service-desc` its OpenAPI export, `service-doc` its page.',
    responses: [{ status: 200, description: 'The linkset.', mediaType: 'application/linkset+json', schema: { type: 'object', required: ['linkset'], properties: { linkset: { type: 'array', items: { type: 'object' } } } } }],
    errors: [401, 429],
  },
];
