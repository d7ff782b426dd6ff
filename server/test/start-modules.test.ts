/**
 * What a worker loads to start: none of the modules only writes, the command line or a rare
 * route need (docs/performance.md#footprint). The built server runs with a probe
 * (fixtures/module-probe.mjs) that lists the module files each process loaded, and the Intl date
 * formatters it built.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { languages } from '@chat-site/contract';
import { createTestDatabase, repoRoot, spawnServer, testEnv, type ServerProcess } from './helpers.js';
import { askEveryWorker } from './worker-logs.js';

/** Loaded at their first use, never at start: what each costs is in docs/performance.md#footprint. */
const notAtStart = [
  // TypeBox's checker and error messages: only a bad site config needs them (lib/site-config-check.ts).
  '/node_modules/typebox/build/value/',
  '/server/dist/vendor/typebox-value.js',
  // The HTML parser: announcements written or cleaned (lib/html-text.ts, bulletins/sanitize.ts).
  '/node_modules/htmlparser2/',
  // The metrics' registry: only with METRICS_TOKEN (lib/metrics-registry.ts).
  '/node_modules/prom-client/',
  // Fastify's default Ajv compiler: the server names its own (lib/validation.ts).
  '/node_modules/@fastify/ajv-compiler/',
  // The OpenAPI document's maker and its YAML writer: the document's first request (ops/openapi.ts).
  '/node_modules/@fastify/swagger/',
  '/node_modules/yaml/',
];

/** Runs `use` against the built server with two workers, the demo content and the probe; the
 * probe's files are in the directory it is given once the server has stopped. */
async function withProbedServer(
  use: (server: ServerProcess) => Promise<void>,
  read: (probeDir: string) => void,
): Promise<void> {
  const database = await createTestDatabase();
  const probeDir = mkdtempSync(join(tmpdir(), 'chat-site-modules-'));
  try {
    const server = await spawnServer(
      testEnv(database, { WORKERS: '2', DEMO_CONTENT: '1', MODULE_PROBE_DIR: probeDir }),
      { nodeArgs: ['--import', join(repoRoot, 'server/test/fixtures/module-probe.mjs')] },
    );
    try {
      await use(server);
    } finally {
      assert.equal(await server.stop(), 0);
    }
    read(probeDir);
  } finally {
    await database.drop();
    rmSync(probeDir, { recursive: true, force: true });
  }
}

test('a worker starts without the modules only writes and rare paths need', async () => {
  await withProbedServer(
    async (server) => assert.equal((await fetch(`${server.url}/healthz`)).status, 200),
    (probeDir) => {
      const workers = readdirSync(probeDir).filter((name) => name.startsWith('worker-') && name.endsWith('.txt'));
      assert.equal(workers.length, 2, 'each worker wrote its list');
      for (const name of workers) {
        const modules = readFileSync(join(probeDir, name), 'utf8').split('\n');
        assert.ok(
          modules.some((url) => url.includes('/node_modules/fastify/')),
          'the probe saw the worker load Fastify',
        );
        const early = notAtStart.flatMap((part) => modules.filter((url) => url.includes(part)).slice(0, 1));
        assert.deepEqual(early, [], `${name} loaded these at start`);
        // Kysely and TypeBox come bundled, a few files instead of hundreds (scripts/bundle-vendor.mjs).
        for (const bundled of ['kysely', 'typebox']) {
          const unbundled = modules.filter((url) => url.includes(`/node_modules/${bundled}/`));
          assert.deepEqual(unbundled.slice(0, 3), [], `${name} loaded ${bundled} from node_modules`);
          assert.ok(
            modules.some((url) => url.endsWith(`/server/dist/vendor/${bundled}.js`)),
            `${name} did not load ${bundled} bundled`,
          );
        }
        // One copy of Ajv for the server, Fastify's serialiser and ajv-formats: the install keeps a
        // single ajv 8 at the top of node_modules (docs/performance.md#footprint).
        const ajvCopies = new Set(modules.flatMap((url) => /^(.*\/node_modules\/ajv)\//.exec(url)?.[1] ?? []));
        assert.equal(ajvCopies.size, 1, `${name} loaded Ajv from ${[...ajvCopies].join(', ')}`);
      }
    },
  );
});

/** What fixtures/module-probe.mjs writes of a process, besides its modules. */
interface Probe {
  execArgv: string[];
  mallocMmapThreshold: string | null;
  formatters: number;
  first?: string;
  fetch: string[];
}

/** What a visitor's first visit asks, in every language: pages with their early rows, the API,
 * the feeds, the sitemap, a share page. */
const visits = [
  ...languages.map((language) => `/?lang=${language}`),
  '/v1/bulletin/page',
  '/v1/bulletin/detail?id=1',
  '/v1/common/getInstallPackageAddrs',
  '/feed.atom',
  '/feed.rss',
  '/changelog.atom',
  '/sitemap.xml',
  '/a/1',
];

test('no process builds an Intl date formatter or loads Node’s fetch answering a first visit in every language; workers run with the supervisor’s V8 and glibc settings', async () => {
  const answers: string[] = [];
  await withProbedServer(
    async (server) => {
      // Each worker answers each path at least once.
      for (const path of visits) {
        for (const { status } of await askEveryWorker(server, path)) answers.push(`${status} ${path}`);
      }
    },
    (probeDir) => {
      assert.deepEqual(
        answers.filter((answer) => !answer.startsWith('200 ')),
        [],
      );
      // A formatter costs a process about 8 MB of the Node binary's ICU data: times are read in
      // TIME_ZONE as local time (lib/time.ts), and the rows' dates are written without one.
      const files = readdirSync(probeDir).filter((file) => file.endsWith('.json'));
      const probes = files.map((name) => ({
        name,
        ...(JSON.parse(readFileSync(join(probeDir, name), 'utf8')) as Probe),
      }));
      for (const { name, formatters, first } of probes) {
        assert.equal(formatters, 0, `${name} built a date formatter: ${first}`);
      }
      // Node's fetch (undici, with web streams: about 2 MB a process) is for the few calls out, to
      // S3 or a CDN check: an `import` of node:http would load it (lib/node-http.ts), and so did
      // @fastify/compress at the first answer (plugins/compression.ts).
      for (const { name, fetch } of probes) assert.deepEqual(fetch, [], `${name} loaded Node's fetch`);
      // The workers run with the supervisor's V8 and glibc settings (cluster/supervisor.ts).
      const workers = probes.filter(({ name }) => name.startsWith('worker-'));
      assert.equal(workers.length, 2, 'each worker wrote what it saw');
      for (const { name, execArgv, mallocMmapThreshold } of workers) {
        assert.ok(execArgv.includes('--no-concurrent-recompilation'), `${name}: ${execArgv.join(' ')}`);
        assert.ok(execArgv.includes('--max-semi-space-size=16'), `${name}: ${execArgv.join(' ')}`);
        assert.equal(mallocMmapThreshold, '131072', `${name}: glibc's mmap threshold`);
      }
    },
  );
});
