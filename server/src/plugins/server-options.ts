/**
 * The Fastify instance and the options only its constructor takes: the log, request ids shared
 * with the fast path, timeouts, and `{status, msg}` for errors found before a route
 * (docs/public-api.md#errors).
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyReply } from 'fastify';
import type { DestinationStream } from 'pino';
import type { ServerConfig } from '../config.js';
import { answerInOrder } from '../pipeline/answer-order.js';
import { AnswerToRequest, RequestFromClient, answerClientError } from '../pipeline/client-errors.js';
import type { ServerResponse } from '../lib/node-http.js';
import { logDestination, trustedProxies } from '../pipeline/request-log.js';
import { schemaController } from '../lib/validation.js';

export interface InstanceOptions {
  /** Where the log goes instead of standard output. */
  logStream?: DestinationStream;
  /** Fastify's request ids; the fast path's log lines take theirs from the same counter. */
  genReqId: () => string;
}

export function createFastify(config: ServerConfig, { logStream, genReqId }: InstanceOptions) {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      stream: logStream ?? (config.logLevel === 'silent' ? undefined : logDestination()),
    },
    // The request line is written by ops/request-observer.ts instead.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId,
    trustProxy: trustedProxies(config.trustProxy),
    bodyLimit: 1024 * 1024,
    // A client that is slow to send its headers, or its whole request, gets 408 and is cut off.
    // Node checks for them every connectionsCheckingInterval, so that follows the timeouts.
    requestTimeout: config.requestTimeoutMs,
    http: {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: config.headersTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, Math.ceil(config.headersTimeoutMs / 4)),
      IncomingMessage: RequestFromClient,
      ServerResponse: AnswerToRequest as typeof ServerResponse,
    },
    // Errors Node finds before Fastify has a request (timeouts, malformed HTTP, headers too
    // large) are answered with the same {status, msg} as every other error, after the requests
    // before them.
    clientErrorHandler: answerClientError,
    // Alone, a stopping server answers a request still arriving with 503 {status, msg}
    // (errors.ts, refuseWhileClosing). One worker of several serves on while it stops, each
    // answer closing its connection, so the client's next request reaches another worker
    // (server.ts drains it).
    return503OnClosing: false,
    // Malformed URLs and over-long path parameters get the same {status, msg} as every error.
    frameworkErrors: (error, _request, reply) => {
      const status = error.statusCode ?? 400;
      void (reply as FastifyReply).status(status).send({ status, msg: error.message });
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    schemaController,
  }).withTypeProvider<TypeBoxTypeProvider>();
  answerInOrder(app.server);
  return app;
}
