// Where an agent starts: the server's instructions, what the catalog is and which tool to call
// first (the tools themselves come from the rooms).

export const INSTRUCTIONS = [
  'A catalog of API definitions (OpenAPI): projects hold versions (branches and environments); each version holds services (APIs) with their operations, parameters, bodies, servers and security schemes. Every tool only reads.',
  'To find the endpoint for a task, call search_endpoints {version, query} first, with the task in plain words ("send an sms", "cancel a subscription"): each hit has a readable title, the ready URL template, the required parameters, the body\'s media types, the servers and where the credential goes.',
  'A version is a `ver_` id or `project/type/slug` (for example `acme/branch/main`); when you know none, list_projects, then list_versions {project}.',
  'For one operation\'s parameters, bodies, responses and schemas, get_endpoint {version, operation} (add `service` when several services share the operationId); answers stay within 16 KB, and get_openapi {version, service} has the whole document, in pages within 16 KB (narrow it with `path`, `operation` or `tag`).',
].join('\n');
