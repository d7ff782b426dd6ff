/**
 * The admin API answers in the shapes of packages/contract/src/admin, which the console reads
 * (docs/admin-api.md#the-admin-wire-types): per area, real answers of this server pass their
 * schema, and the same answer with a field taken out does not, so the check can fail. On SQLite,
 * and on PostgreSQL with TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AppConfig, RegionDocument } from '@chat-site/contract';
import {
  AdminBulletin,
  AdminBulletinPage,
  AuditPage,
  BulletinCreated,
  DownloadStats,
  FileInUse,
  FilePage,
  HostedFile,
  MinVersions,
  Operator,
  Release,
  ReleaseCards,
  Rollout,
  Revision,
  RevisionList,
  SiteConfigAnswer,
  TrashPage,
  UpdateStats,
  VersionConflict,
} from '@chat-site/contract/admin';
import type { LightMyRequestResponse } from 'fastify';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { bearer, startTestApp, type TestApp } from './helpers.js';
import { adminCalls } from './admin-calls.js';

let t: TestApp;
before(async () => {
  t = await startTestApp({ demo: true });
});
after(() => t.close());

const { admin, createBulletin } = adminCalls(() => t.app);

/** An answer and the schema it is meant to have. */
type Answer = [schema: TSchema, res: LightMyRequestResponse];

const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNk+A8AAQUBAScY42YAAAAASUVORK5CYII=',
  'base64',
);

/** Each area's answers; `missing` is a field of the first one's body, as a path. */
const areas: { area: string; missing: string; answers(): Promise<Answer[]> }[] = [
  {
    area: 'accounts',
    missing: 'role',
    answers: async () => [[Operator, await admin('GET', '/session')]],
  },
  {
    area: 'audit',
    missing: 'list.0.action',
    answers: async () => {
      await createBulletin({ title: '审计' });
      return [[AuditPage, await admin('GET', '/audit')]];
    },
  },
  {
    area: 'bulletins',
    missing: 'list.0.status',
    answers: async () => {
      const created = await admin('POST', '/bulletins', { title: '形状', content: '<p>正文</p>' });
      const { id } = created.json<{ id: number }>();
      await admin('PUT', `/bulletins/${id}`, { title: '形状二', version: 1 });
      return [
        [AdminBulletinPage, await admin('GET', '/bulletins')],
        [BulletinCreated, created],
        [AdminBulletin, await admin('GET', `/bulletins/${id}`)],
        [VersionConflict, await admin('PUT', `/bulletins/${id}`, { title: '过期', version: 1 })],
        [BulletinCreated, await admin('POST', `/bulletins/${id}/duplicate`)],
      ];
    },
  },
  {
    area: 'revisions and the trash',
    missing: 'list.0.by',
    answers: async () => {
      const id = await createBulletin({ title: '历史' });
      const list = await admin('GET', `/bulletins/${id}/revisions`);
      const first = list.json<{ list: { id: number }[] }>().list[0]?.id;
      const one = await admin('GET', `/bulletins/${id}/revisions/${first}`);
      await admin('DELETE', `/bulletins/${id}`);
      return [
        [RevisionList, list],
        [Revision, one],
        [TrashPage, await admin('GET', '/bulletins/trash')],
      ];
    },
  },
  {
    area: 'files',
    missing: 'list.0.used_by',
    answers: async () => {
      const hosted = await t.app.inject({
        method: 'POST',
        url: '/v1/admin/files?name=shape.png',
        headers: { ...bearer, 'content-type': 'image/png' },
        payload: png,
      });
      const { key, path } = hosted.json<{ key: string; path: string }>();
      await createBulletin({ title: '配图', content: `<p><img src="${path}" alt=""></p>` });
      return [
        [FilePage, await admin('GET', '/files')],
        [HostedFile, hosted],
        [FileInUse, await admin('DELETE', `/files/${key}`)],
      ];
    },
  },
  {
    area: 'numbers',
    missing: 'days.0.android',
    answers: async () => [
      [DownloadStats, await admin('GET', '/stats/downloads?days=7')],
      [UpdateStats, await admin('GET', '/stats/updates?os=android&days=7')],
    ],
  },
  {
    area: 'releases',
    missing: 'platforms.0.current',
    answers: async () => {
      const body = { os: 'windows', url: 'https://dl.example.com/chat-9.0.0.exe', version: '9.0.0' };
      const published = await admin('POST', '/releases', body);
      const staged = { ...body, version: '9.1.0', rollout_percentage: 10 };
      assert.equal((await admin('POST', '/releases', staged)).statusCode, 201);
      return [
        [ReleaseCards, await admin('GET', '/releases')],
        [Rollout, await admin('PUT', '/rollouts/windows', { percentage: 50 })],
        [Release, published],
        [MinVersions, await admin('PUT', '/min-versions/android', { min_version: '5.0.0' })],
      ];
    },
  },
  {
    area: 'settings',
    missing: 'path',
    answers: async () => {
      const region = { api_addrs: [{ addr: 'https://api.example.com' }], allocator_addrs: [] };
      return [
        [SiteConfigAnswer, await admin('GET', '/site-config')],
        [AppConfig, await admin('PUT', '/appconfig', { use_cdn: 0, common_cdn_bucket_url: '' })],
        [RegionDocument, await admin('PUT', '/region', region)],
      ];
    },
  },
];

/** `body` without the field at `path` ("list.0.status"); the path must name one. */
function without(body: unknown, path: string): unknown {
  const copy = structuredClone(body) as Record<string, unknown>;
  const keys = path.split('.');
  const last = keys.pop() ?? '';
  const parent = keys.reduce<Record<string, unknown>>((node, key) => node[key] as Record<string, unknown>, copy);
  assert.ok(last in parent, `${path} is in ${JSON.stringify(body).slice(0, 300)}`);
  Reflect.deleteProperty(parent, last);
  return copy;
}

for (const { area, missing, answers } of areas) {
  describe(`the admin answers of ${area}`, () => {
    let bodies: [TSchema, unknown][];
    before(async () => {
      bodies = (await answers()).map(([schema, res]) => {
        assert.ok(res.statusCode < 500, res.body);
        return [schema, res.json()];
      });
    });

    test('pass the contract’s schemas', () => {
      for (const [schema, body] of bodies) {
        const errors = [...Value.Errors(schema, body)].slice(0, 3);
        assert.ok(Value.Check(schema, body), `${JSON.stringify(body).slice(0, 300)}\n${JSON.stringify(errors)}`);
      }
    });

    test(`fail them without ${missing}`, () => {
      const [schema, body] = bodies[0] ?? assert.fail('no answer');
      assert.equal(Value.Check(schema, without(body, missing)), false);
    });
  });
}
