// Request samples that run as pasted: the path's parameters filled with their example (else a
// visible YOUR_… placeholder), the required query, header and cookie parameters present, the
// credential where its scheme puts it, and a body from the description's example or, without
// one, generated from the schema by openapi-sampler; JSON sent as JSON, forms as forms, a file
// part where the schema has a binary field. httpsnippet writes the curl, fetch and requests code.
import { HTTPSnippet, type HarRequest } from '@readme/httpsnippet';
import { sample } from 'openapi-sampler';
import { isObject } from '../json/values.ts';

type Fields = Readonly<Record<string, unknown>>;

/** A security scheme as the operation's detail resolves it (search/endpoints.ts). */
export interface SampleScheme {
  type?: string;
  scheme?: string;
  in?: string;
  name?: string;
  parameterName?: string;
}

export interface SampleInput {
  method: string;
  /** The server's URL, variables filled, no trailing slash. */
  base: string;
  /** The path template, `{name}` for each path parameter. */
  path: string;
  parameters: readonly Fields[];
  /** The first alternative's schemes: the credential the samples carry, as placeholders. */
  schemes: ReadonlyArray<{ scheme: SampleScheme }>;
  /** The request body records (one per media type); the sample sends the JSON one, else the first. */
  requests: readonly Fields[];
  /** Component schemas by name, for the `$ref`s of the bodies' schemas. */
  schemas: Readonly<Record<string, unknown>>;
}

export interface Sample { label: string; code: string }

const FORM = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data';

/** curl, JavaScript fetch (Node 18 and later) and Python requests samples of one call. */
export function samplesOf(input: SampleInput): Sample[] {
  const har = harOf(input);
  // httpsnippet fills in the request it is handed (a form's text from its fields): each language gets a copy.
  const made = (request: HarRequest, target: string, client: string, options?: Record<string, unknown>) => {
    const code = new HTTPSnippet(structuredClone(request)).convert(target as never, client, options as never);
    return Array.isArray(code) ? code.join('\n') : String(code);
  };
  // A here-document body is quoted, so the shell leaves a `$` or a backquote in it alone; curl reads a file body (`@name`) as it is.
  const curl = made(fileBody(har, (name) => `@${name}`), 'shell', 'curl', { binary: isFile(har) }).replace(/ <<EOF\n/, " <<'EOF'\n");
  return [
    { label: 'curl', code: curl },
    { label: 'JavaScript (fetch)', code: withBody(har, (request) => made(request, 'node', 'fetch'), JAVASCRIPT) },
    { label: 'Python (requests)', code: withBody(har, (request) => made(request, 'python', 'requests'), PYTHON) },
  ];
}

/**
 * A response's body as text: the description's own example, else one made from its schema by
 * openapi-sampler (write-only properties left out); JSON pretty-printed. Undefined where the
 * response has neither (no body).
 */
export function responseExample(response: Fields, schemas: Readonly<Record<string, unknown>>): string | undefined {
  const schema = isObject(response['schema']) ? response['schema'] : undefined;
  let body = firstExample(response['examples']) ?? exampleIn(response['kvStorage']) ?? (schema && exampleIn(schema));
  if (body === undefined && schema && Object.keys(schema).length > 0) {
    try {
      body = sample(schema as never, { skipWriteOnly: true, quiet: true, enablePatterns: true, maxSampleDepth: 8 }, { components: { schemas } });
    } catch {
      // A schema the sampler cannot walk: no made-up example.
    }
  }
  if (body === undefined) return undefined;
  return shortened(typeof body === 'string' && !isJson(response['contentMediaType']) ? body : JSON.stringify(body, null, 2));
}

/** Characters of a response example shown at most: GitHub's emojis example alone is 170 KB, most of its page's weight and time. */
export const EXAMPLE_MAX_CHARS = 16_000;

/** An example cut at a line's end past EXAMPLE_MAX_CHARS, with a last line saying how much is left out. */
function shortened(text: string): string {
  if (text.length <= EXAMPLE_MAX_CHARS) return text;
  const cut = text.lastIndexOf('\n', EXAMPLE_MAX_CHARS);
  const kept = text.slice(0, cut > 0 ? cut : EXAMPLE_MAX_CHARS);
  const left = text.slice(kept.length).split('\n').length - 1;
  return `${kept}\n… ${left} more lines: the whole example is in the service's OpenAPI export`;
}

/** How a language quotes httpsnippet's placeholder, how we write a JSON value in it, and how it reads a file to send (with what it must import first). */
interface Language { quoted: string; json: (value: unknown) => string; file: (name: string) => { code: string; imports: string } }

const PAYLOAD = 'CATALOG_SAMPLE_PAYLOAD';
// JSON is JavaScript; its strings' escapes are Python's too. The fetch sample imports fs as httpsnippet's multipart samples do.
const JAVASCRIPT: Language = {
  quoted: `'${PAYLOAD}'`, json: (value) => JSON.stringify(value, null, 2).replaceAll('\n', '\n  '),
  file: (name) => ({ code: `fs.readFileSync(${JSON.stringify(name)})`, imports: "import fs from 'fs';\n\n" }),
};
const PYTHON: Language = { quoted: `"${PAYLOAD}"`, json: (value) => pythonLiteral(value, ''), file: (name) => ({ code: `open(${JSON.stringify(name)}, "rb")`, imports: '' }) };

/**
 * The body whose schema is a file's content (`format: binary`, `contentMediaType`) of a media type
 * other than a form: sent as a file, `body.<subtype>` (`body.bin` for `application/octet-stream`),
 * never as a made-up string. httpsnippet has no file body but a form's parts: its postData carries
 * FILE_BODY, which fileBody makes each language's.
 */
const FILE_BODY = 'CATALOG_SAMPLE_FILE';

function isFile(har: HarRequest): boolean {
  return har.postData?.text === FILE_BODY;
}

/** The request with its file body as `text` (curl reads `@name`), or as it is. */
function fileBody(har: HarRequest, text: (name: string) => string): HarRequest {
  return isFile(har) ? { ...har, postData: { ...har.postData!, text: text(fileNameOf(har.postData!.mimeType)) } } : har;
}

function fileNameOf(mediaType: string): string {
  const subtype = /^[a-z]+\/([a-z0-9]{1,5})$/i.exec(mediaType)?.[1]?.toLowerCase();
  return `body.${subtype && subtype !== 'octet' ? subtype : 'bin'}`;
}

/**
 * httpsnippet writes a body's literal escaping too little (a backslash or a newline in a string
 * breaks its Python, a backslash its JavaScript): it writes a placeholder instead, replaced by
 * the body as written here. A body of any JSON media type goes as JSON (`json=`,
 * `JSON.stringify`), its Content-Type header keeping its media type.
 */
function withBody(har: HarRequest, made: (request: HarRequest) => string, language: Language): string {
  const text = har.postData?.text;
  if (text === undefined || har.postData?.params) return made(har);
  if (isFile(har)) {
    const { code, imports } = language.file(fileNameOf(har.postData!.mimeType));
    return imports + made({ ...har, postData: { ...har.postData!, text: PAYLOAD } }).replace(language.quoted, () => code);
  }
  let literal = JSON.stringify(text);
  let json = false;
  if (isJson(har.postData!.mimeType)) {
    try {
      literal = language.json(JSON.parse(text));
      json = true;
    } catch {
      // Not JSON after all: sent as the text it is.
    }
  }
  const placeholder = json ? { mimeType: 'application/json', text: JSON.stringify(PAYLOAD) } : { mimeType: har.postData!.mimeType, text: PAYLOAD };
  return made({ ...har, postData: placeholder }).replace(language.quoted, () => literal);
}

function pythonLiteral(value: unknown, indent: string): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  const inner = `${indent}    `;
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[\n${value.map((each) => inner + pythonLiteral(each, inner)).join(',\n')}\n${indent}]`;
  if (isObject(value)) {
    const entries = Object.entries(value);
    return entries.length === 0 ? '{}' : `{\n${entries.map(([key, each]) => `${inner}${JSON.stringify(key)}: ${pythonLiteral(each, inner)}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

/** The call as a HAR request, which httpsnippet writes in each language. */
function harOf(input: SampleInput): HarRequest {
  const document = { components: { schemas: input.schemas } };
  const byPlace = (place: string) => input.parameters.filter((parameter) => parameter['in'] === place);
  // A fragment in a path (`/schema#classifications`, two operations on one path) is never sent.
  const path = input.path.replace(/#.*$/, '').replace(/\{([^}]+)\}/g, (_template, name: string) => {
    const parameter = byPlace('path').find((candidate) => candidate['name'] === name);
    return encodeURIComponent(parameter ? valueText(parameterValue(parameter, document)) : placeholder(name));
  });
  const har: HarRequest = {
    method: input.method.toUpperCase(), url: `${input.base}${path}`, httpVersion: 'HTTP/1.1', headersSize: -1, bodySize: -1,
    headers: [], queryString: [], cookies: [], postData: { mimeType: '' },
  };
  const sent = input.parameters.filter((parameter) => parameter['required'] === true);
  for (const parameter of sent) {
    const name = String(parameter['name']);
    const value = parameterValue(parameter, document);
    if (parameter['in'] === 'query') har.queryString.push(...(Array.isArray(value) ? value : [value]).map((each) => ({ name, value: valueText(each) })));
    // OpenAPI ignores header parameters named Accept, Content-Type or Authorization: those come from the body and the scheme.
    if (parameter['in'] === 'header' && !/^(accept|content-type|authorization)$/i.test(name)) har.headers.push({ name, value: valueText(value) });
    if (parameter['in'] === 'cookie') har.cookies.push({ name, value: valueText(value) });
  }
  credentialInto(har, input.schemes);
  const request = input.requests.find((candidate) => isJson(candidate['contentMediaType'])) ?? input.requests.find((candidate) => typeof candidate['contentMediaType'] === 'string');
  if (request) bodyInto(har, request, document);
  return har;
}

function credentialInto(har: HarRequest, schemes: SampleInput['schemes']): void {
  for (const { scheme } of schemes) {
    if (scheme.type === 'apiKey') {
      const name = scheme.parameterName ?? scheme.name ?? 'api_key';
      const target = scheme.in === 'query' ? har.queryString : scheme.in === 'cookie' ? har.cookies : har.headers;
      target.push({ name, value: 'YOUR_API_KEY' });
    } else if (scheme.type === 'http' && (scheme.scheme ?? '').toLowerCase() === 'basic') {
      har.headers.push({ name: 'Authorization', value: 'Basic BASE64_USER_COLON_PASSWORD' });
    } else if (scheme.type === 'http' || scheme.type === 'oauth2' || scheme.type === 'openIdConnect') {
      const word = scheme.type === 'http' ? scheme.scheme ?? 'Bearer' : 'Bearer';
      har.headers.push({ name: 'Authorization', value: `${word.charAt(0).toUpperCase()}${word.slice(1).toLowerCase()} YOUR_TOKEN` });
    }
  }
}

function bodyInto(har: HarRequest, request: Fields, document: object): void {
  const mediaType = String(request['contentMediaType']);
  const schema = isObject(request['schema']) ? request['schema'] : {};
  const body = bodyExample(request, schema, document);
  if (mediaType === MULTIPART || mediaType === FORM) {
    // Multipart's Content-Type is left to curl, fetch and requests, which add the boundary; one of ours would lack it.
    if (mediaType === FORM) har.headers.push({ name: 'Content-Type', value: mediaType });
    har.postData = { mimeType: mediaType, params: formParams(body, schema, document, mediaType === MULTIPART) };
    return;
  }
  har.headers.push({ name: 'Content-Type', value: mediaType });
  if (isFileContent(mediaType, resolved$ref(schema, document))) {
    har.postData = { mimeType: mediaType, text: FILE_BODY };
    return;
  }
  har.postData = { mimeType: mediaType, text: typeof body === 'string' && !isJson(mediaType) ? body : JSON.stringify(body ?? {}, null, 2) };
}

/** The description's own example (of the media type, else the schema's), else one made from the schema. */
function bodyExample(request: Fields, schema: Record<string, unknown>, document: object): unknown {
  const own = firstExample(request['examples']) ?? exampleIn(request['kvStorage']) ?? exampleIn(schema);
  if (own !== undefined) return own;
  return withRequired(generated(schema, document), schema, document);
}

/** A made-up object with a placeholder for each required property the schema names but does not describe (Spotify's `uris`); read-only ones are not sent. */
function withRequired(body: unknown, schema: Record<string, unknown>, document: object): unknown {
  if (!isObject(body)) return body;
  const resolved = resolved$ref(schema, document);
  const parts = [resolved, ...(Array.isArray(resolved['allOf']) ? resolved['allOf'].filter(isObject).map((part) => resolved$ref(part, document)) : [])];
  const readOnly = (part: Record<string, unknown>, name: string) => {
    const property = isObject(part['properties']) ? part['properties'][name] : undefined;
    return isObject(property) && resolved$ref(property, document)['readOnly'] === true;
  };
  const missing = parts.flatMap((part) => (Array.isArray(part['required']) ? part['required'].map(String).filter((name) => !readOnly(part, name)) : []))
    .filter((name) => !(name in body));
  return missing.length === 0 ? body : { ...body, ...Object.fromEntries(missing.map((name) => [name, placeholder(name)])) };
}

/** One value from the schema: openapi-sampler, every property included (so every required one), read-only ones left out. */
function generated(schema: unknown, document: object): unknown {
  try {
    return sample(schema as never, { skipReadOnly: true, quiet: true, enablePatterns: true, maxSampleDepth: 8 }, document);
  } catch {
    // A schema the sampler cannot walk (a `$ref` outside the components it was handed): no made-up body.
    return {};
  }
}

type Part = { name: string; value?: string; fileName?: string; contentType?: string };

/** Each field of a form as a part: a file part for a binary field (multipart), else its value as text. */
function formParams(body: unknown, schema: Record<string, unknown>, document: object, multipart: boolean): Part[] {
  const properties = propertiesOf(schema, document);
  return Object.entries(isObject(body) ? body : {}).flatMap(([name, value]): Part[] => {
    if (multipart && isBinary(properties[name])) return [{ name, fileName: `${name}.bin`, contentType: 'application/octet-stream' }];
    return (Array.isArray(value) ? value : [value]).map((each) => ({ name, value: valueText(each) }));
  });
}

function propertiesOf(schema: Record<string, unknown>, document: object, depth = 0): Record<string, unknown> {
  const resolved = resolved$ref(schema, document);
  const own = isObject(resolved['properties']) ? resolved['properties'] : {};
  const parts = Array.isArray(resolved['allOf']) ? resolved['allOf'].filter(isObject) : [];
  return depth > 4 ? own : Object.assign({}, ...parts.map((part) => propertiesOf(part, document, depth + 1)), own);
}

/**
 * Whether a body of this media type and schema is a file's content: a binary schema, or none at
 * all for a media type that is not text, JSON, XML or a form. OpenAPI 3.1 describes a binary body
 * with no schema (`application/octet-stream: {}`), as the import's upgrade of a 3.0 description's
 * `format: binary` leaves it.
 */
function isFileContent(mediaType: string, schema: Record<string, unknown>): boolean {
  if (isBinary(schema)) return true;
  const described = Object.keys(schema).some((key) => !['description', 'title'].includes(key));
  return !described && !isJson(mediaType) && !/^text\/|[/+]xml\b|^multipart\/|^application\/x-www-form-urlencoded/i.test(mediaType);
}

/** A file's content: `format: binary` (OpenAPI 3.0) or a `contentMediaType` string (3.1), or an array of those. */
function isBinary(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  if (schema['type'] === 'array') return isBinary(schema['items']);
  return schema['format'] === 'binary' || typeof schema['contentMediaType'] === 'string';
}

function resolved$ref(schema: Record<string, unknown>, document: object): Record<string, unknown> {
  const ref = schema['$ref'];
  if (typeof ref !== 'string' || !ref.startsWith('#/components/schemas/')) return schema;
  const name = decodeURIComponent(ref.slice('#/components/schemas/'.length)).replaceAll('~1', '/').replaceAll('~0', '~');
  const target = (document as { components: { schemas: Record<string, unknown> } }).components.schemas[name];
  return isObject(target) ? target : {};
}

/** A parameter's value: its example, its schema's example, default or first allowed value, else a visible placeholder. */
function parameterValue(parameter: Fields, document: object): unknown {
  const schema = isObject(parameter['schema']) ? resolved$ref(parameter['schema'], document) : {};
  const own = firstExample(parameter['examples']) ?? exampleIn(parameter['kvStorage']) ?? exampleIn(schema)
    ?? schema['default'] ?? (Array.isArray(schema['enum']) ? schema['enum'][0] : undefined);
  // An example in braces (`{{PAGE_ID}}`, Postman's) is a placeholder of another tool: ours reads as one and needs no encoding.
  return own === undefined || /[{}]/.test(valueText(own)) ? placeholder(String(parameter['name'])) : own;
}

/** A placeholder that reads as one and survives URL encoding unchanged: `YOUR_PLAYLIST_ID`. */
function placeholder(name: string): string {
  return `YOUR_${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '')}`;
}

function firstExample(examples: unknown): unknown {
  if (!isObject(examples)) return undefined;
  return Object.values(examples).filter(isObject).find((example) => 'value' in example && example['value'] !== undefined)?.['value'];
}

function exampleIn(holder: unknown): unknown {
  if (!isObject(holder)) return undefined;
  if (holder['example'] !== undefined) return holder['example'];
  return Array.isArray(holder['examples']) ? holder['examples'][0] : undefined;
}

function valueText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? '';
}

function isJson(mediaType: unknown): boolean {
  return typeof mediaType === 'string' && /^application\/(.+\+)?json\b/i.test(mediaType);
}
