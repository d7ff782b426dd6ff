/**
 * For `npm run lint`: the document at /v1/openapi.json, made by the app in-process on a throwaway
 * SQLite database, linted with Redocly's recommended rules and the repository's redocly.yaml
 * (docs/admin-api.md#api-documentation). Fails on any error; prints the warnings.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatProblems, getTotals, lintFromString, loadConfig as loadRedoclyConfig } from '@redocly/openapi-core';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { connect } from '../server/src/db/connect.js';
import { migrate } from '../server/src/db/migrations.js';
import { storageFor } from '../server/src/storage/index.js';
import { repoRoot } from '../testing/repo-root.js';

async function openApiDocument(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'chat-site-openapi-'));
  try {
    const config = loadConfig({
      DATABASE_URL: `sqlite:${join(dir, 'site.db')}`,
      STORAGE_URL: `file:${join(dir, 'files')}`,
      SITE_CONFIG: join(repoRoot, 'site.config.json'),
      WEB_ROOT: join(dir, 'no-web-build'),
      LOG_LEVEL: 'silent',
      WORKERS: '1',
    });
    const db = connect(config.database);
    await migrate(db, storageFor(config.storage));
    const app = await buildApp({ config, db });
    const res = await app.inject('/v1/openapi.json');
    await app.close();
    await db.close();
    if (res.statusCode !== 200) throw new Error(`GET /v1/openapi.json answered ${res.statusCode}`);
    return res.body;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const config = await loadRedoclyConfig({ configPath: join(repoRoot, 'redocly.yaml') });
// Indented, so that a problem's line and column point somewhere readable.
const source = JSON.stringify(JSON.parse(await openApiDocument()), null, 2);
const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
const totals = getTotals(problems);
if (problems.length > 0)
  formatProblems(problems, { format: 'stylish', totals, version: '', color: false, maxProblems: 1000 });
console.log(`openapi.json: ${totals.errors} errors, ${totals.warnings} warnings (Redocly, recommended)`);
if (totals.errors > 0) process.exitCode = 1;
