/**
 * The console's numbers: downloads through the stable /dl links per platform per day, as JSON
 * for the chart and table, or as a CSV file (docs/admin-api.md).
 */
import { downloadPlatforms } from '@chat-site/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { DownloadStats, DownloadStatsQuery } from '@chat-site/contract/admin';
import type { RouteDeps } from '../pipeline/deps.js';
import { toWireTime } from '../lib/time.js';
import { inAppPerDay, type InAppDay } from './in-app-counts.js';
import { dayBefore, downloadsPerDay, totalOfDays, type DayCounts } from './repository.js';

export const downloadAdminRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db, config }) => {
  app.get(
    '/stats/downloads',
    {
      schema: {
        operationId: 'getDownloadStats',
        summary: 'Downloads per day and platform through /dl/{os}, as JSON or CSV',
        querystring: DownloadStatsQuery,
        response: {
          200: {
            description: 'The counts, as JSON or, with format=csv, as CSV',
            content: {
              'application/json': { schema: DownloadStats },
              'text/csv': { schema: Type.String() },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const to = toWireTime(new Date(), config.timeZone).slice(0, 10);
      const from = dayBefore(to, request.query.days - 1);
      // Oldest first: the order a chart and a spreadsheet read them in.
      const days = (await downloadsPerDay(db.kysely, from, to)).reverse();
      const inAppFound = await inAppPerDay(db.kysely, from, to);
      const inApp = days.map(({ day }) => inAppFound.get(day) ?? { visits: 0, guides: 0 });
      if (request.query.format === 'csv') {
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="downloads-${from}-${to}.csv"`)
          .send(toCsv(days, inApp));
      }
      const inAppTotal = {
        visits: inApp.reduce((sum, day) => sum + day.visits, 0),
        guides: inApp.reduce((sum, day) => sum + day.guides, 0),
      };
      return {
        from,
        to,
        time_zone: config.timeZone,
        days,
        total: totalOfDays(days),
        in_app: { days: inApp, total: inAppTotal },
      };
    },
  );
};

const columns = ['day', ...downloadPlatforms, 'total'] as const;

/** RFC 4180: a header row, CRLF line ends; every cell is a date or a number, so none is quoted.
 * The in-app browsers' visits and guides are the last two columns, day by day. */
export function toCsv(days: DayCounts[], inApp: InAppDay[]): string {
  const header = [...columns, 'in_app_visits', 'in_app_guides'].join(',');
  const line = (day: DayCounts, index: number) => {
    const { visits = 0, guides = 0 } = inApp[index] ?? {};
    return [...columns.map((column) => String(day[column])), visits, guides].join(',');
  };
  return `${[header, ...days.map(line)].join('\r\n')}\r\n`;
}
