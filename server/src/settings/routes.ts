import { AppConfig, PingAnswer, RegionDocument } from '@chat-site/contract';
import {
  AppConfigBody,
  CdnCheck,
  CdnCheckBody,
  RegionBody,
  SiteConfigAnswer,
  SiteListing,
} from '@chat-site/contract/admin';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { badRequest } from '../lib/errors.js';
import type { RouteDeps } from '../pipeline/deps.js';
import { publicOrigin } from '../lib/origin.js';
import { bucketUrlProblem } from '../lib/schemas.js';
import { audit } from '../accounts/door.js';
import { isHttpUrl } from '../config.js';
import { storageFor } from '../storage/index.js';
import { allowList } from './cdn-address.js';
import { checkCdn, ensureProbe } from './cdn-check.js';
import { regionDocumentProblem } from './region-check.js';
import {
  getAppConfig,
  getRegionDocument,
  getSiteListing,
  setAppConfig,
  setRegionDocument,
  setSiteListing,
} from './repository.js';

export const settingRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db, config, cache }) => {
  app.get(
    '/ping',
    {
      schema: {
        operationId: 'ping',
        summary: 'Whether this API answers (how the apps probe an address)',
        response: { 200: PingAnswer },
      },
    },
    async () => ({ status: 200 as const }),
  );

  app.get(
    '/common/appconfig',
    {
      schema: {
        operationId: 'getAppConfig',
        summary: 'The app config: whether addresses go through the CDN, and its bucket',
        response: { 200: AppConfig },
      },
    },
    async (request, reply) => cache.sendForUrl(request, reply, 'appconfig', () => getAppConfig(db.kysely)),
  );

  // Until the operator publishes a region document, this server names itself.
  app.get(
    '/region',
    {
      schema: {
        operationId: 'getRegion',
        summary: 'The region document: the API and allocator addresses',
        response: { 200: RegionDocument },
      },
    },
    async (request, reply) => {
      const origin = publicOrigin(request, config.publicUrl);
      return cache.send(request, reply, `region ${origin}`, async () => {
        const stored = await getRegionDocument(db.kysely);
        if (stored !== undefined) return stored;
        return { api_addrs: [{ addr: origin }], allocator_addrs: [{ addr: `${origin}/v1/region` }] };
      });
    },
  );
};

export const settingAdminRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db, config }) => {
  const storage = storageFor(config.storage);
  const cdnCheckAllowed = allowList(config.cdnCheckAllowAddresses);
  app.get(
    '/site-config',
    {
      schema: {
        operationId: 'getSiteConfig',
        summary: 'The site config file this server read at start, and its path',
        response: { 200: SiteConfigAnswer },
      },
    },
    async () => ({ path: config.siteConfigPath, config: config.site }),
  );

  app.post(
    '/settings/cdn-check',
    {
      schema: {
        operationId: 'checkCdn',
        summary: 'Fetch a probe file through a CDN bucket address and report what came back',
        body: CdnCheckBody,
        response: { 200: CdnCheck },
      },
    },
    async (request) => {
      const given = request.body?.url;
      const bucket = given ?? (await getAppConfig(db.kysely)).common_cdn_bucket_url;
      if (bucket === '') throw badRequest('body/url: give a CDN bucket URL; none is saved in the app config');
      if (!isHttpUrl(bucket)) throw badRequest(`body/url: "${bucket}" is not an http(s) URL`);
      const problem = bucketUrlProblem(bucket);
      if (problem !== undefined) throw badRequest(`body/url: ${problem}`);
      await ensureProbe(db.kysely, storage);
      return checkCdn(bucket, request.body?.timeout_ms ?? 5000, cdnCheckAllowed);
    },
  );

  app.put(
    '/appconfig',
    {
      schema: {
        operationId: 'setAppConfig',
        summary: 'Replace the app config',
        body: AppConfigBody,
        response: { 200: AppConfig },
      },
    },
    async (request) => {
      const given = request.body.common_cdn_bucket_url;
      const problem = given === '' ? undefined : bucketUrlProblem(given);
      if (problem !== undefined) throw badRequest(`body/common_cdn_bucket_url: ${problem}`);
      const body = { ...request.body, common_cdn_bucket_url: request.body.common_cdn_bucket_url.replace(/\/+$/, '') };
      if (body.use_cdn === 1 && body.common_cdn_bucket_url === '') {
        throw badRequest('body/common_cdn_bucket_url: a CDN bucket URL is needed when use_cdn is 1');
      }
      const before = await getAppConfig(db.kysely);
      await setAppConfig(db.kysely, body);
      await audit(db, request, { action: 'appconfig.set', target: 'appconfig', before, after: body });
      return body;
    },
  );

  app.put(
    '/region',
    {
      schema: {
        operationId: 'setRegion',
        summary: 'Replace the region document',
        body: RegionBody,
        response: { 200: RegionDocument },
      },
    },
    async (request) => {
      const problem = regionDocumentProblem(request.body);
      if (problem !== undefined) throw badRequest(problem.msg, problem.detail);
      const before = await getRegionDocument(db.kysely);
      await setRegionDocument(db.kysely, request.body);
      await audit(db, request, { action: 'region.set', target: 'region', before, after: request.body });
      return request.body;
    },
  );

  app.get(
    '/listing',
    {
      schema: {
        operationId: 'getSiteListing',
        summary: "The site's listing: filing numbers, store pages, search verification codes",
        response: { 200: SiteListing },
      },
    },
    async () => getSiteListing(db.kysely),
  );

  // Every page carries what is set here from the next request on (docs/reach.md#filings-stores-and-verification).
  app.put(
    '/listing',
    {
      schema: {
        operationId: 'setSiteListing',
        summary: "Replace the site's listing",
        body: SiteListing,
        response: { 200: SiteListing },
      },
    },
    async (request) => {
      const body = { ...request.body, police_filing: request.body.police_filing.replace(/\s+/g, '') };
      const before = await getSiteListing(db.kysely);
      await setSiteListing(db.kysely, body);
      await audit(db, request, { action: 'listing.set', target: 'listing', before, after: body });
      return body;
    },
  );
};
