// Request samples read back into the call they make: curl's arguments tokenised by shell-quote
// and read flag by flag; the fetch sample run in a VM context whose `fetch` records its call; the
// Python samples run by python3 with a `requests` module that records its call. So a test sees
// what each sample would send, not what its text looks like.
import { execFileSync } from 'node:child_process';
import { Readable } from 'node:stream';
import vm from 'node:vm';
import { parse } from 'shell-quote';

/** One call as a sample would send it. `form` holds form fields; a file part's value, or a body sent from a file, is `file:NAME`. */
export interface Call {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  form?: Array<[string, string]>;
}

/** A curl command line (httpsnippet's flags) as the call it makes. */
export function curlCall(code: string): Call {
  // A body in a quoted here-document (`--data @- <<'EOF'`) is read as it stands, and stands for `@-`.
  const heredoc = /^([\s\S]*) <<'EOF'\n([\s\S]*?)\nEOF$/.exec(code.trimEnd());
  if (/ <<'?EOF/.test(code) && !heredoc) throw new Error('curl sample has an unquoted here-document');
  const command = heredoc ? heredoc[1]! : code;
  const words = parse(command.replace(/\\\n/g, ' ')).map((word) => {
    if (typeof word !== 'string') throw new Error(`curl sample has shell syntax: ${JSON.stringify(word)}`);
    return word;
  });
  if (words.shift() !== 'curl') throw new Error('not a curl command');
  const call: Call = { method: 'GET', url: '', headers: {} };
  const data: string[] = [];
  const fields = (form: Array<[string, string]>) => (call.form = [...(call.form ?? []), ...form]);
  for (let index = 0; index < words.length; index++) {
    const flag = words[index]!;
    const value = words[++index] ?? '';
    if (flag === '--request' || flag === '-X') call.method = value;
    else if (flag === '--url') call.url = value;
    else if (flag === '--header' || flag === '-H') call.headers[value.slice(0, value.indexOf(':')).toLowerCase()] = value.slice(value.indexOf(':') + 1).trim();
    else if (flag === '--cookie' || flag === '-b') call.headers['cookie'] = value;
    else if (flag === '--data' || flag === '--data-raw' || flag === '-d') data.push(value === '@-' && heredoc ? heredoc[2]! : value);
    // A file, as curl reads it: `@name` sends the file's bytes.
    else if (flag === '--data-binary') data.push(value.startsWith('@') ? `file:${value.slice(1)}` : value);
    else if (flag === '--data-urlencode') fields([[value.slice(0, value.indexOf('=')), value.slice(value.indexOf('=') + 1)]]);
    else if (flag === '--form' || flag === '-F') {
      const [name, part] = [value.slice(0, value.indexOf('=')), value.slice(value.indexOf('=') + 1)];
      fields([[name, part.startsWith('@') ? `file:${part.slice(1)}` : part]]);
    } else throw new Error(`curl flag not read: ${flag}`);
  }
  if (data.length > 0) call.body = data.join('&');
  return call;
}

/** The fetch sample run with a `fetch` that records the call. */
export async function fetchCall(code: string): Promise<Call> {
  const calls: Call[] = [];
  // A file the sample reads holds its own name, so the part it becomes says which file it was.
  const fs = { createReadStream: (name: string) => Readable.from([Buffer.from(`file:${name}`)]), readFileSync: (name: string) => Buffer.from(`file:${name}`) };
  const fetch = async (url: string, options: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) => {
    const headers = Object.fromEntries(Object.entries(options.headers ?? {}).map(([name, value]) => [name.toLowerCase(), String(value)]));
    const call: Call = { method: options.method ?? 'GET', url, headers };
    if (typeof options.body === 'string') call.body = options.body;
    else if (options.body instanceof Uint8Array) call.body = Buffer.from(options.body).toString();
    else if (options.body instanceof URLSearchParams) call.form = [...options.body];
    else if (options.body instanceof FormData) {
      call.form = await Promise.all([...options.body].map(async ([name, value]): Promise<[string, string]> => [name, typeof value === 'string' ? value : await value.text()]));
    } else if (options.body !== undefined) throw new Error(`fetch body of an unknown kind: ${String(options.body)}`);
    calls.push(call);
    return new Response('{}');
  };
  const script = code.replace(/^import fs from 'fs';$/m, '');
  const context = vm.createContext({ fetch, fs, FormData, URLSearchParams, Response, Blob, JSON, console: { log() {}, error() {} } });
  await vm.runInContext(`(async () => {\n${script}\n})()`, context);
  await new Promise((resolve) => setImmediate(resolve));
  if (calls.length !== 1) throw new Error(`fetch sample made ${calls.length} calls`);
  return calls[0]!;
}

const PYTHON_RUNNER = String.raw`
import json, sys, types, urllib.parse, builtins
calls = []
class Opened(str): pass
def recording_open(name, mode="r", *rest, **more):
    return Opened(name)
def request(method, url, params=None, data=None, json_body=None, files=None, headers=None, cookies=None, **rest):
    if "json" in rest: json_body = rest.pop("json")
    if rest: raise Exception("requests argument not read: " + ", ".join(rest))
    call = {"method": method.upper(), "url": url, "headers": {k.lower(): str(v) for k, v in (headers or {}).items()}}
    if params: call["url"] += ("&" if "?" in url else "?") + urllib.parse.urlencode(params, doseq=True)
    if cookies: call["headers"]["cookie"] = "; ".join(k + "=" + v for k, v in cookies.items())
    if json_body is not None: call["body"] = json.dumps(json_body)
    form = []
    if isinstance(data, dict): form += [[k, str(x)] for k, v in data.items() for x in (v if isinstance(v, list) else [v])]
    elif isinstance(data, Opened): call["body"] = "file:" + data
    elif data is not None: call["body"] = data if isinstance(data, str) else data.decode()
    if files: form += [[k, "file:" + (v[0] if isinstance(v, tuple) else str(v))] for k, v in files.items()]
    if form or files or isinstance(data, dict): call["form"] = form
    calls.append(call)
    return types.SimpleNamespace(text="{}", json=lambda: {})
requests = types.ModuleType("requests")
requests.request = request
for verb in ["get", "post", "put", "patch", "delete", "head", "options"]:
    setattr(requests, verb, (lambda verb: lambda url, **kw: request(verb, url, **kw))(verb))
sys.modules["requests"] = requests
builtins.open = recording_open
answers = []
for code in json.load(sys.stdin):
    calls.clear()
    try:
        exec(code, {"__name__": "__sample__", "print": lambda *a, **k: None})
        answers.append(calls[0] if len(calls) == 1 else {"error": "%d calls" % len(calls)})
    except Exception as error:
        answers.append({"error": repr(error)})
json.dump(answers, sys.stdout)
`;

/** Each Python requests sample run once by python3 with a recording `requests`; an error text where one failed. */
export function pythonCalls(codes: readonly string[]): Array<Call | { error: string }> {
  const out = execFileSync('python3', ['-c', PYTHON_RUNNER], { input: JSON.stringify(codes), maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(out.toString()) as Array<Call | { error: string }>;
}
