// A small HTTP service traced by the OpenTelemetry JS SDK, run as its own process by the
// real-clients spec: the SDK's HTTP instrumentation records a server span per request (and a
// client span for the call it makes to CALLS_URL), and the OTLP/HTTP JSON exporter sends them to
// REPORT_URL with REPORT_TOKEN when asked (GET /flush). Prints its port once listening.
import { createRequire } from 'node:module';
import type * as Http from 'node:http';
import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';

const exporter = new OTLPTraceExporter({ url: process.env['REPORT_URL']!, headers: { Authorization: `Bearer ${process.env['REPORT_TOKEN']!}` } });
const provider = new TracerProvider({
  resource: resourceFromAttributes({ 'service.name': 'menagerie' }),
  spanProcessors: [new BatchSpanProcessor({ exporter })],
});
trace.setGlobalTracerProvider(provider);
registerInstrumentations({ instrumentations: [new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => req.url === '/flush' })] });
// Loaded after the instrumentation is registered, through require, which is what it patches.
const http = createRequire(import.meta.url)('node:http') as typeof Http;

const server = http.createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0]!;
  if (path === '/flush') {
    provider.forceFlush().then(() => res.end('flushed'), (error: unknown) => { res.statusCode = 500; res.end(String(error)); });
    return;
  }
  if (path === '/v1/pets') {
    // A call to another service: the instrumentation records it as a client span.
    http.get(process.env['CALLS_URL']!, (upstream) => {
      upstream.resume();
      upstream.on('end', () => res.end('[]'));
    }).on('error', () => res.end('[]'));
    return;
  }
  res.statusCode = path === '/v1/pets/mine' || /^\/v1\/pets\/\d+$/.test(path) ? 200 : 404;
  res.end('{}');
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(server.address() as { port: number }).port}\n`);
});
