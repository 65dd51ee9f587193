// The service's logger: JSON lines on stdout (pino), at the configured level.
import { pino, type Logger } from 'pino';
import type { LogLevel } from './config.ts';

export function createLogger(level: LogLevel): Logger {
  return pino({ level, base: { service: 'catalog' }, timestamp: pino.stdTimeFunctions.isoTime });
}
