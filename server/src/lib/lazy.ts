/**
 * A CommonJS package loaded the first time it is used rather than when the server starts: the
 * PostgreSQL driver on SQLite, the AWS SDK on a directory store, the HTML sanitiser and the APK
 * reader until an operator writes or uploads. Each costs a worker 10 to 30 MB it would hold for
 * nothing (docs/performance.md#footprint).
 */
import { createRequire } from 'node:module';

const requirePackage = createRequire(import.meta.url);

export function lazy<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= requirePackage(name) as T);
}
