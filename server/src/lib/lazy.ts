/**
 * A package loaded the first time it is used rather than when the server starts: the PostgreSQL
 * driver on SQLite, the AWS SDK on a directory store, the HTML sanitiser, HTML parser and the APK
 * reader until an operator writes or uploads, OpenCC until one saves or searches in Chinese,
 * TypeBox's typebox/value until a site config must be explained. Each costs a worker 1 to 50 MB
 * it would hold for nothing
 * (docs/performance.md#footprint). CommonJS, or an ES module without top-level await: Node's
 * require loads those too.
 */
import { createRequire } from 'node:module';

const requirePackage = createRequire(import.meta.url);

export function lazy<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= requirePackage(name) as T);
}
