/**
 * The operator's announcements: drafts, scheduled publication, pinning, optimistic concurrency
 * (a save names the version it edited, by If-Match or `version`; a stale one is a 409 with the
 * current state) and deletion to the trash. Revisions and the trash have routes of their own
 * (revision-routes.ts, trash-routes.ts). See docs/behaviour.md#announcements-for-operators.
 */
import {
  AdminBulletin,
  AdminBulletinPage,
  AdminBulletinQuery,
  BulletinCreateBody,
  BulletinCreated,
  BulletinUpdateBody,
  IdParams,
  NoContent,
  VersionConflict,
} from '@chat-site/contract/admin';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { actorOf, audit } from '../accounts/door.js';
import type { RouteDeps } from '../pipeline/deps.js';
import { badRequest, HttpError, notFound } from '../lib/errors.js';
import { errorResponse } from '../lib/schemas.js';
import { fromWireTime, nowIso } from '../lib/time.js';
import { adminBulletinPage, toAdminBulletin } from './admin-view.js';
import { endTimes } from './end-time-input.js';
import { languagePatch } from './language-input.js';
import { findBulletin, removeBulletin, restoreBulletin, type BulletinPatch } from './repository.js';
import { createWithRevision, saveWithRevision } from './revisions.js';
import { sanitizeBulletinHtml, tooDeeplyNested } from './sanitize.js';
import { lastSavedBy } from './saved-by.js';
import { traditionalHtml, traditionalText } from '../lib/chinese-scripts.js';
import { trashCutoff, trashDays } from './trash.js';

/** The 409 of a stale save, as the OpenAPI document describes it. */
export const Conflict = {
  ...VersionConflict,
  description: 'Someone saved a newer version first; current is that version',
};

/** The 409 of a save that started from an older version than `current`. */
export async function conflictAnswer(
  db: Kysely<Database>,
  expected: number | undefined,
  current: AdminBulletin,
): Promise<VersionConflict> {
  return {
    status: 409,
    msg: `someone saved this announcement since you opened it (version ${expected}, now ${current.version})`,
    code: 'version_conflict',
    current,
    saved_by: await lastSavedBy(db, current.id),
  };
}
const editor = { access: 'editor' } as const;

export const bulletinAdminRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db, config }) => {
  const zone = config.timeZone;
  const view = async (id: number) => {
    const row = await findBulletin(db.kysely, id);
    if (row === undefined) throw notFound('announcement');
    return toAdminBulletin(row, zone);
  };
  const instant = (publishAt: string | null | undefined, field: string): string | undefined => {
    if (publishAt === undefined || publishAt === null) return undefined;
    const at = fromWireTime(publishAt, zone);
    if (at === undefined) throw badRequest(`body/${field}: ${publishAt} is not a real date and time`);
    return at;
  };

  app.get(
    '/bulletins',
    {
      config: editor,
      schema: {
        operationId: 'listAdminBulletins',
        summary: 'One page of all announcements: drafts, scheduled and published; searched and filtered',
        querystring: AdminBulletinQuery,
        response: { 200: AdminBulletinPage },
      },
    },
    async (request) => {
      const { q, filter, page_index, page_size } = request.query;
      const now = nowIso();
      const page = await adminBulletinPage(db.kysely, {
        search: q.trim(),
        filter,
        index: page_index,
        size: page_size,
      });
      return { count: page.count, list: page.rows.map((row) => toAdminBulletin(row, zone, now)) };
    },
  );

  app.get(
    '/bulletins/:id',
    {
      config: editor,
      schema: {
        operationId: 'getAdminBulletin',
        summary: 'One announcement, in any state, with its version as ETag',
        params: IdParams,
        response: { 200: AdminBulletin, 404: errorResponse('No announcement has this id') },
      },
    },
    async (request, reply) => {
      const bulletin = await view(request.params.id);
      return reply.header('etag', `"${bulletin.version}"`).send(bulletin);
    },
  );

  app.post(
    '/bulletins',
    {
      config: editor,
      schema: {
        operationId: 'createBulletin',
        summary: 'Write an announcement: published, a draft, or scheduled',
        body: BulletinCreateBody,
        response: { 201: BulletinCreated },
      },
    },
    async (request, reply) => {
      const { title, content, topup, state, publish_at } = request.body;
      const createdAt = instant(publish_at, 'publish_at');
      const simplified = { title: title.trim(), content: publishable(content) };
      const { traditional, english } = languagePatch(request.body, undefined, publishable, () => ({
        title: traditionalText(simplified.title),
        content: traditionalHtml(simplified.content),
      }));
      const input = {
        ...simplified,
        pinned: topup === 1,
        state: state ?? 'published',
        createdAt,
        ...endTimes(request.body, createdAt ?? nowIso(), zone),
        ...(typeof traditional === 'object' && { traditional }),
        ...(english !== undefined && { english }),
      };
      const id = await createWithRevision(db.kysely, input, actorOf(request));
      const after = await view(id);
      await audit(db, request, { action: 'bulletin.create', target: id, after });
      return reply.status(201).header('etag', `"${after.version}"`).send({ id, version: after.version });
    },
  );

  app.put(
    '/bulletins/:id',
    {
      config: editor,
      schema: {
        operationId: 'updateBulletin',
        summary: 'Change an announcement, from the version named by If-Match or body/version',
        params: IdParams,
        body: BulletinUpdateBody,
        response: {
          200: AdminBulletin,
          404: errorResponse('No announcement has this id'),
          409: Conflict,
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const { title, content, topup, state, publish_at, version } = request.body;
      const expected = expectedVersion(request.headers['if-match'], version);
      const before = await view(id);
      const patch: BulletinPatch = {
        ...(title !== undefined && { title: title.trim() }),
        ...(content !== undefined && { content: publishable(content) }),
        ...(topup !== undefined && { pinned: topup === 1 }),
        ...(state !== undefined && { state }),
        ...languagePatch(request.body, before, publishable, () => ({ title: '', content: '' })),
      };
      const createdAt = instant(publish_at, 'publish_at');
      // Publishing a draft with no time given publishes it now; so does publish_at null.
      if (createdAt !== undefined) patch.createdAt = createdAt;
      else if (publish_at === null || (state === 'published' && before.status === 'draft')) patch.createdAt = nowIso();
      Object.assign(
        patch,
        endTimes(request.body, patch.createdAt ?? fromWireTime(before.publish_at, zone) ?? nowIso(), zone),
      );
      // An end time outlives no manual change of what it would end (docs/behaviour.md#announcements-that-stop-by-themselves).
      if (state === 'draft' && patch.unpublishAt === undefined) patch.unpublishAt = null;
      if (topup === 0 && patch.unpinAt === undefined) patch.unpinAt = null;
      const result = await saveWithRevision(db.kysely, id, patch, expected, {
        actor: actorOf(request),
        action: 'update',
      });
      if (result === 'missing') throw notFound('announcement');
      if (result === 'conflict') {
        return reply.status(409).send(await conflictAnswer(db.kysely, expected, await view(id)));
      }
      const after = await view(id);
      await audit(db, request, { action: 'bulletin.update', target: id, before, after });
      return reply.header('etag', `"${after.version}"`).send(after);
    },
  );

  app.delete(
    '/bulletins/:id',
    {
      config: editor,
      schema: {
        operationId: 'deleteBulletin',
        summary: `Move an announcement to the trash (restorable for ${trashDays} days, then purged)`,
        params: IdParams,
        response: { 204: NoContent, 404: errorResponse('No announcement has this id') },
      },
    },
    async (request, reply) => {
      const before = await findBulletin(db.kysely, request.params.id);
      if (before === undefined || !(await removeBulletin(db.kysely, request.params.id))) {
        throw notFound('announcement');
      }
      await audit(db, request, {
        action: 'bulletin.remove',
        target: request.params.id,
        before: toAdminBulletin(before, zone),
      });
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/bulletins/:id/restore',
    {
      config: editor,
      schema: {
        operationId: 'restoreBulletin',
        summary: `Bring back an announcement from the trash (deleted in the last ${trashDays} days)`,
        params: IdParams,
        response: {
          200: AdminBulletin,
          404: errorResponse('No announcement with this id is in the trash'),
        },
      },
    },
    async (request) => {
      if (!(await restoreBulletin(db.kysely, request.params.id, trashCutoff(Date.now())))) {
        throw notFound('deleted announcement (the trash keeps one for 30 days)');
      }
      const after = await view(request.params.id);
      await audit(db, request, { action: 'bulletin.restore', target: request.params.id, after });
      return after;
    },
  );
};

/** The version a save was made from: If-Match ("3", W/"3" or *) or the body's `version`. */
export function expectedVersion(ifMatch: string | undefined, bodyVersion: number | undefined): number | undefined {
  if (ifMatch === undefined || ifMatch.trim() === '*') return bodyVersion;
  const version = Number(/^(?:W\/)?"(\d+)"$/.exec(ifMatch.trim())?.[1]);
  if (!Number.isSafeInteger(version)) throw new HttpError(400, 'If-Match must name a version, as in "3"');
  if (bodyVersion !== undefined && bodyVersion !== version) throw badRequest('If-Match and body/version differ');
  return version;
}

/** The content as it will be stored: cleaned, or refused when it nests too deep to clean. */
function publishable(html: string): string {
  const problem = tooDeeplyNested(html);
  if (problem !== undefined) throw badRequest(problem);
  return sanitizeBulletinHtml(html);
}
