import { pino, type Logger } from 'pino';
import { build as prettyStream } from 'pino-pretty';
import type { Config } from '../config.js';

/** `auto`: readable lines on a terminal, JSON (one object a line) when piped or collected. */
export type LogFormat = 'auto' | 'pretty' | 'json';

export interface LogOptions {
  level: string;
  format: LogFormat;
  /** Fields a person must not miss: in pretty output each stands alone on its own line, set off by blank lines. */
  alone?: string[];
  /** Whether stdout is a terminal (`process.stdout.isTTY`), for `auto`. */
  isTTY?: boolean;
}

const REDACT = {
  paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.apiKey', '*.password_hash'],
  censor: '[redacted]',
};

export function resolveFormat(format: LogFormat, isTTY: boolean): 'pretty' | 'json' {
  return format === 'auto' ? (isTTY ? 'pretty' : 'json') : format;
}

/**
 * JSON is pino's own output. Pretty is pino-pretty as a synchronous stream in this thread rather than as a
 * transport (a worker thread): each line is written before the call returns, so `process.exit` after shutdown
 * or a crash loses nothing, and a function can format the lines. Terminals see few lines, so the cost is none.
 */
export function createLog(options: LogOptions): Logger {
  const base = { name: 'redirectory', level: options.level, redact: REDACT };
  if (resolveFormat(options.format, options.isTTY ?? process.stdout.isTTY === true) === 'json') return pino(base);
  const alone = options.alone ?? [];
  const stream = prettyStream({
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: ['pid', 'hostname', 'name', ...alone].join(','),
    messageFormat: (log, messageKey) => {
      const lines = alone.filter((field) => typeof log[field] === 'string').map((field) => `\n${String(log[field])}\n`);
      return [String(log[messageKey] ?? ''), ...lines].join('\n');
    },
  });
  return pino(base, stream);
}

/** The server's log on stdout (LOG_FORMAT); the one-time setup address stands alone in pretty output. */
export function createLogger(config: Config): Logger {
  return createLog({ level: config.LOG_LEVEL, format: config.LOG_FORMAT, alone: ['setupUrl'] });
}
