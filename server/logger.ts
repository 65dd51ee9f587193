// The service's logger (pino) at the configured level: JSON lines, or pretty lines for people
// when the output is a terminal (LOG_FORMAT=auto) or asked for (pretty).
import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { LogFormat, LogLevel } from './config.ts';

type Output = NodeJS.WritableStream & { isTTY?: boolean };

export function createLogger(level: LogLevel, format: LogFormat = 'auto', output: Output = process.stdout): Logger {
  const options = { level, base: { service: 'catalog' }, timestamp: pino.stdTimeFunctions.isoTime };
  const asPretty = format === 'pretty' || (format === 'auto' && output.isTTY === true);
  if (!asPretty) return output === process.stdout ? pino(options) : pino(options, output);
  return pino(options, pretty({
    destination: output,
    sync: true,
    colorize: output.isTTY === true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service',
  }));
}
