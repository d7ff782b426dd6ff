/**
 * `/healthz` (the process answers) and `/readyz` (it can serve: database, file storage,
 * migrations, and with several workers every one of them listening), for load balancers and orchestrators (docs/monitoring.md#health-checks).
 */
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import type { Peers } from '../cluster/peers.js';
import type { Db } from '../db/connect.js';
import { pendingMigrations } from '../db/migrations.js';
import type { FileStorage } from '../storage/index.js';

/** A check that has not answered by then has failed: a probe must not hang with a stuck pool. */
const checkTimeoutMs = 3000;

type CheckName = 'database' | 'storage' | 'migrations' | 'workers';
const Check = Type.Union([Type.Literal('ok'), Type.Literal('failed'), Type.Literal('pending')]);
const Checks = Type.Object({ database: Check, storage: Check, migrations: Check, workers: Check });

const schemas = {
  healthz: {
    operationId: 'checkHealth',
    summary: 'Whether the process answers (touches nothing else)',
    tags: ['health'],
    response: { 200: Type.Object({ status: Type.Literal('ok') }, { description: 'The process answers' }) },
  },
  readyz: {
    operationId: 'checkReadiness',
    summary:
      'Whether the server can serve: database reachable, file storage usable, migrations done, every worker listening',
    tags: ['health'],
    response: {
      200: Type.Object({ status: Type.Literal('ok'), checks: Checks }, { description: 'Every check passed' }),
      503: Type.Object(
        { status: Type.Literal(503), msg: Type.String(), checks: Checks },
        { description: 'A check failed or timed out (3 s); checks says which' },
      ),
    },
  },
};

export const healthRoutes: FastifyPluginAsyncTypebox<{ db: Db; storage: FileStorage; peers?: Peers }> = async (
  app,
  { db, storage, peers },
) => {
  app.get('/healthz', { schema: schemas.healthz }, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'ok' as const }),
  );

  app.get('/readyz', { schema: schemas.readyz }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const run = async (name: CheckName, probe: () => Promise<'ok' | 'pending'>) => {
      try {
        return await withTimeout(probe());
      } catch (error) {
        // The reason goes to the log, not to whoever asks: it may name paths or hosts.
        request.log.error({ err: error, check: name }, 'readiness check failed');
        return 'failed' as const;
      }
    };
    // A worker's own port answers before the others listen: ready only once the supervisor says
    // they all do, so that a probe's 200 means the whole server serves.
    const workers = peers === undefined || peers.allListening() ? ('ok' as const) : ('pending' as const);
    const [database, storageCheck, migrations] = await Promise.all([
      run('database', async () => {
        await sql`select 1`.execute(db.kysely);
        return 'ok';
      }),
      run('storage', async () => {
        await storage.check();
        return 'ok';
      }),
      run('migrations', async () => ((await pendingMigrations(db)).length === 0 ? 'ok' : 'pending')),
    ]);
    const checks = { database, storage: storageCheck, migrations, workers };
    const failures = Object.entries(checks).flatMap(([name, outcome]) => (outcome === 'ok' ? [] : [name]));
    if (failures.length === 0) return reply.send({ status: 'ok' as const, checks });
    return reply.status(503).send({ status: 503 as const, msg: `not ready: ${failures.join(', ')}`, checks });
  });
};

function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${checkTimeoutMs} ms`)), checkTimeoutMs);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
