/**
 * The supervisor's log: the few lines it writes in its life (workers starting, dying, being
 * replaced, stopping) in the same JSON as the workers' pino lines, without loading pino, which
 * with its dependencies cost the supervisor about 3 MB it would hold for nothing
 * (docs/performance.md#footprint). Written synchronously: there are few, and the last ones come
 * just before the process exits.
 */
import { writeSync } from 'node:fs';
import { hostname } from 'node:os';

export interface SupervisorLogger {
  info(object: object, message: string): void;
  info(message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
  error(message: string): void;
}

/** pino's levels: a line is written when its level is at least LOG_LEVEL's. */
const levels: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };

export function supervisorLogger(level: string, write = (line: string) => void writeSync(1, line)): SupervisorLogger {
  const threshold = levels[level] ?? Infinity;
  const bindings = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;
  const at =
    (value: number) =>
    (objectOrMessage: object | string, message?: string): void => {
      if (value < threshold) return;
      const object = typeof objectOrMessage === 'string' ? {} : objectOrMessage;
      let fields = '';
      for (const [key, field] of Object.entries(object)) {
        if (field !== undefined) fields += `,${JSON.stringify(key)}:${JSON.stringify(field)}`;
      }
      const msg = typeof objectOrMessage === 'string' ? objectOrMessage : (message ?? '');
      try {
        write(`{"level":${value},"time":${Date.now()}${bindings}${fields},"msg":${JSON.stringify(msg)}}\n`);
      } catch {
        // Standard output gone (a closed pipe): the supervisor goes on supervising.
      }
    };
  return { info: at(30), warn: at(40), error: at(50) };
}
