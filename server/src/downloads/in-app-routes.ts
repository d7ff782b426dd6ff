import { inAppBrowser } from '@chat-site/contract/in-app';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { RouteDeps } from '../pipeline/deps.js';
import { errorResponse } from '../lib/schemas.js';
import { toWireTime } from '../lib/time.js';
import { countInApp, inAppEvents } from './in-app-counts.js';

/**
 * `POST /dl/in-app/{visit|guide}`: the site's beacon from a chat app's built-in browser, counted
 * for the numbers screen (docs/site.md#in-app-browsers). The app is read from the request's
 * own user agent, with the site's rule; a request from any other browser counts nothing. However
 * many arrive, they only bump one row per day and app: the beacon can inflate a count, never
 * grow the table.
 */
export const inAppRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db, config }) => {
  const schema = {
    operationId: 'countInAppBrowser',
    summary: "Count a visit from a chat app's built-in browser, or a guide shown there",
    params: Type.Object({ event: Type.Union(inAppEvents.map((event) => Type.Literal(event))) }),
    response: {
      204: { type: 'null', description: 'Counted, or not from a known built-in browser' },
      400: errorResponse('Not one of the events: visit, guide'),
    },
  };
  app.post('/dl/in-app/:event', { schema }, async (request, reply) => {
    const found = inAppBrowser(request.headers['user-agent'] ?? '');
    if (found !== undefined) {
      const day = toWireTime(new Date(), config.timeZone).slice(0, 10);
      await countInApp(db.kysely, found, request.params.event, day).catch((error: unknown) =>
        request.log.error({ err: error }, 'in-app count failed'),
      );
    }
    return reply.header('cache-control', 'no-store').code(204).send();
  });
};
