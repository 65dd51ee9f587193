// The service's logger (pino) at the configured level: JSON lines, or pretty lines for people
// when the output is a terminal (LOG_FORMAT=auto) or asked for (pretty).
import { createRequire } from 'node:module';
import { pino, type Logger } from 'pino';
import type { PrettyOptions } from 'pino-pretty';
import type { LogFormat, LogLevel } from './config.ts';

// Loaded only when asked for: JSON output (containers, CI, tests) does without it.
const loadPretty = () => createRequire(import.meta.url)('pino-pretty') as (options: PrettyOptions) => NodeJS.WritableStream;

type Output = NodeJS.WritableStream & { isTTY?: boolean };

export function createLogger(level: LogLevel, format: LogFormat = 'auto', output: Output = process.stdout): Logger {
  const options = { level, base: { service: 'catalog' }, timestamp: pino.stdTimeFunctions.isoTime };
  const asPretty = format === 'pretty' || (format === 'auto' && output.isTTY === true);
  if (!asPretty) return output === process.stdout ? pino(options) : pino(options, output);
  return pino(options, loadPretty()({
    destination: output,
    sync: true,
    colorize: output.isTTY === true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service',
  }));
}
