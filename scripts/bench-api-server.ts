/**
 * For `npm run bench:api`: the built server exactly as server/dist/server.js runs it, plus one
 * route that is the ceiling of the stack: GET /v1/bench/ceiling?path=<a public API path> answers the
 * bytes and headers that path answered the first time it was asked, from memory, through the
 * same Fastify instance, plugins and hooks (security headers, ETag, compression, logging), with
 * no database, serialization or compression left to do.
 */
import type { FastifyReply } from 'fastify';
import { buildApp } from '../server/dist/app.js';
import { loadConfig } from '../server/dist/config.js';
import { connect } from '../server/dist/db/connect.js';
import { migrate } from '../server/dist/db/migrations.js';

interface Fixed {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const config = loadConfig();
const db = connect(config.database);
await migrate(db);
const fixed = new Map<string, Fixed>();
const kept = ['content-type', 'content-encoding', 'etag', 'vary'];

// Inside the /v1/ scope, so that its CORS and cache-control hooks run for the ceiling too.
const app = await buildApp({
  config,
  db,
  extraApiRoutes: async (api) => {
    api.get<{ Querystring: { path: string } }>('/bench/ceiling', async (request, reply: FastifyReply) => {
      const { path } = request.query;
      const encoding = request.headers['accept-encoding'] ?? '';
      const key = `${encoding}\u0000${path}`;
      let answer = fixed.get(key);
      if (answer === undefined) {
        const probe = await app.inject({ url: path, headers: { 'accept-encoding': encoding } });
        const headers = Object.fromEntries(
          kept.flatMap((name) => (probe.headers[name] === undefined ? [] : [[name, String(probe.headers[name])]])),
        );
        answer = { status: probe.statusCode, headers, body: probe.rawPayload };
        fixed.set(key, answer);
      }
      return reply.status(answer.status).headers(answer.headers).send(answer.body);
    });
  },
});

const stop = async () => {
  await app.close();
  await db.close();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
const address = await app.listen({ port: config.port, host: config.host });
app.log.info({ address }, 'bench server with /bench/ceiling');
