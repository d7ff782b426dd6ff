/**
 * Which folder may import which (docs/architecture.md#boundaries), kept by
 * import-x/no-restricted-paths. An import the resolver cannot follow is not checked, so the
 * resolver below reads TypeScript's `.js` specifiers and extensionless imports as the compilers do.
 *
 * web/src: imports flow one way, app (and the entry scripts beside it) → features →
 * components → lib → config. A feature does not import another feature: what several features
 * use lives in lib/ (lib/api-bootstrap) or components/ (components/ui/stale-note). Layout
 * receives the features it places (the language and theme switchers) from app/page-shell.tsx.
 * Nothing in web/src or web/build imports from server/.
 *
 * server/src: a resource (a folder with routes: bulletins, packages, files, downloads, settings,
 * reach, page) reaches another resource only through that resource's named public modules
 * below: its `repository.ts` and, for a few, one named module. Never another resource's routes
 * (app.ts and plugins/ register them) or its other internals. lib/ holds leaves: it imports nothing
 * else of the server. pipeline/ (the request machinery: the socket reader, the read cache and fast
 * path, the request log, the admin guard, the routes' dependencies), db/, storage/, config.ts and
 * paths.ts import no resource and none of cli/, demo/, app.ts, plugins/, server.ts, serving.ts. cli/, demo/,
 * app.ts, plugins/, server.ts and serving.ts sit on top and may import anything in server/src. No source imports server/test.
 *
 * e2e/, testing/ and scripts/: nothing from server/test (the server's test helpers load its sources
 * and database drivers); e2e/support has what browser tests need, testing/ what the browser tests,
 * the server's tests and the scripts share (a free port, the repository root, the built server as a
 * child process, the test databases, the S3 stand-in).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

const root = import.meta.dirname;
const foldersIn = (dir) =>
  readdirSync(join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

const web = {
  app: ['web/src/app'],
  features: ['web/src/features'],
  components: ['web/src/components'],
  lib: ['web/src/lib'],
  config: ['web/src/config'],
};

/** Every feature folder, so a new one is covered without editing this file. */
const features = foldersIn('web/src/features');

const webZones = [
  {
    target: [...web.features, ...web.components, ...web.lib, ...web.config],
    from: web.app,
    message: 'Only app/ and the entry scripts import app/.',
  },
  {
    target: [...web.components, ...web.lib, ...web.config],
    from: web.features,
    message: 'components/, lib/ and config/ import no feature: app/ passes features in (see app/page-shell.tsx).',
  },
  { target: [...web.lib, ...web.config], from: web.components, message: 'lib/ and config/ import no component.' },
  { target: web.config, from: web.lib, message: 'config/ imports nothing from lib/.' },
  ...features.map((feature) => ({
    target: `web/src/features/${feature}`,
    from: 'web/src/features',
    except: [`./${feature}`],
    message: 'A feature does not import another feature: move what they share into lib/ or components/.',
  })),
  {
    target: ['web/src', 'web/build'],
    from: 'server',
    message: 'web/ does not import from server/: shared names live in packages/contract.',
  },
];

/**
 * The modules of a resource that other resources may import, each with the reason it is public.
 * `repository.ts` (the resource's data) is public for every resource.
 */
const publicModules = {
  accounts: ['door.ts'], // who is asking, and the audit log every change is written to
  bulletins: ['sanitize.ts'], // the one allowlist every stored and published announcement goes through
  downloads: ['smart-app-banner.ts'], // its tag in the page's head
  reach: ['head.ts', 'xml.ts'], // its tags in the page's head; escaping for any page the server writes
};
const resources = ['accounts', 'bulletins', 'downloads', 'files', 'packages', 'page', 'reach', 'settings'];
const serverTop = [
  'server/src/cli',
  'server/src/demo',
  'server/src/app.ts',
  'server/src/plugins',
  'server/src/server.ts',
  'server/src/serving.ts',
];

const serverZones = [
  ...resources.flatMap((resource) =>
    resources
      .filter((other) => other !== resource)
      .map((other) => ({
        target: `server/src/${resource}`,
        from: `server/src/${other}`,
        except: ['./repository.ts', ...(publicModules[other] ?? []).map((file) => `./${file}`)],
        message: `Reach ${other}/ through its repository.ts or its named public modules (eslint.config.boundaries.js).`,
      })),
  ),
  ...resources.map((resource) => ({
    target: `server/src/${resource}`,
    from: serverTop,
    message: 'Resources do not import cli/, demo/, app.ts, plugins/, server.ts or serving.ts.',
  })),
  {
    target: [
      'server/src/pipeline',
      'server/src/db',
      'server/src/storage',
      'server/src/config.ts',
      'server/src/paths.ts',
    ],
    from: [...resources.map((resource) => `server/src/${resource}`), ...serverTop],
    message:
      'pipeline/, db/, storage/, config.ts and paths.ts import no resource, cli/, demo/, app.ts, plugins/, server.ts or serving.ts.',
  },
  {
    target: 'server/src/lib',
    from: 'server/src',
    except: ['./lib', './types'],
    message:
      'lib/ holds leaves that anything may use: it imports nothing else of the server (pipeline/ may import db/ and config.ts).',
  },
  { target: 'server/src', from: 'server/test', message: 'Sources do not import tests.' },
  {
    target: ['e2e', 'scripts', 'testing'],
    from: 'server/test',
    message: "e2e/, testing/ and scripts/ do not reach into the server's tests: use e2e/support or testing/.",
  },
];

/**
 * console/src: the same one-way flow as the site, app (and preview, the preview frame's entry) →
 * features → ui → lib; a feature does not import another. Of the site it takes only what
 * web/src/console-surface/ names, and the site takes nothing of it.
 */
const consoleDirs = {
  top: ['console/src/app', 'console/src/preview', 'console/src/main.tsx'],
  features: ['console/src/features'],
  ui: ['console/src/ui'],
  lib: ['console/src/lib'],
};
const consoleFeatures = foldersIn('console/src/features');

const consoleZones = [
  {
    target: [...consoleDirs.features, ...consoleDirs.ui, ...consoleDirs.lib],
    from: consoleDirs.top,
    message: 'Only app/, preview/ and main.tsx import app/: what screens share lives in lib/ or ui/.',
  },
  {
    target: [...consoleDirs.ui, ...consoleDirs.lib],
    from: consoleDirs.features,
    message: 'ui/ and lib/ import no feature.',
  },
  { target: consoleDirs.lib, from: consoleDirs.ui, message: 'lib/ imports no ui/ component.' },
  ...consoleFeatures.map((feature) => ({
    target: `console/src/features/${feature}`,
    from: 'console/src/features',
    except: [`./${feature}`],
    message: 'A console feature does not import another: move what they share into lib/ or ui/.',
  })),
  {
    target: 'console/src',
    from: 'web/src',
    except: ['./console-surface'],
    message: 'The console takes from the site only what web/src/console-surface/ names.',
  },
  { target: ['web/src', 'web/build'], from: 'console', message: 'The site imports nothing from console/.' },
];

export const boundaries = {
  files: ['**/*.{js,mjs,ts,tsx}'],
  plugins: { 'import-x': importX },
  settings: {
    'import-x/resolver-next': [
      createNodeResolver({
        extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
        extensionAlias: { '.js': ['.ts', '.tsx', '.js'], '.mjs': ['.mts', '.mjs'] },
        conditionNames: ['source', 'import', 'default'],
      }),
    ],
  },
  rules: {
    'import-x/no-restricted-paths': [
      'error',
      { basePath: root, zones: [...webZones, ...serverZones, ...consoleZones] },
    ],
  },
};
