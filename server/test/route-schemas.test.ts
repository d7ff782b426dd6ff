/**
 * A route's request checks and answer serialisers are compiled when a request first needs them,
 * not as the route is added (lib/validation.ts, docs/performance.md#footprint), so a schema that
 * cannot compile must fail here rather than in a visitor's request.
 */
import assert from 'node:assert/strict';
import { after, before, describe, mock, test } from 'node:test';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { Ajv } from 'ajv';
import type { FastifySchema, RouteOptions } from 'fastify';
import { schemaController, validatorCompiler } from '../src/lib/validation.js';
import { startTestApp, type TestApp } from './helpers.js';

const parts = ['body', 'querystring', 'params', 'headers'] as const;
const broken = { type: 'object', properties: { a: { $ref: '#/definitions/missing' } } };

describe('route schemas', () => {
  const routes: RouteOptions[] = [];
  // Made in `before`, not as the file loads: where every file shares one process
  // (docs/testing.md#the-whole-suite), the others' compiles before this suite starts are not counted.
  let compile: ReturnType<typeof mock.method<Ajv, 'compile'>>;
  let t: TestApp;
  let atStart: unknown[];

  before(async () => {
    compile = mock.method(Ajv.prototype, 'compile');
    t = await startTestApp({
      onRoute: (route) => void routes.push(route),
      env: { METRICS_TOKEN: 'test-metrics-token-0123456789abcdefghij' },
    });
    atStart = compile.mock.calls.map((call) => call.arguments[0]);
  });
  after(async () => {
    compile?.mock.restore();
    await t?.close();
  });

  const schemaOf = (url: string) =>
    routes.find((route) => route.url === url && route.method === 'GET')?.schema as FastifySchema;

  test('every route schema compiles', () => {
    const serializer = SerializerSelector()({}, undefined);
    let checks = 0;
    let serializers = 0;
    for (const { method, url, schema } of routes) {
      if (schema === undefined) continue;
      for (const httpPart of parts) {
        if (schema[httpPart] === undefined) continue;
        assert.doesNotThrow(
          () => validatorCompiler({ schema: schema[httpPart] as object, method: String(method), url, httpPart }),
          `${String(method)} ${url} ${httpPart}`,
        );
        checks++;
      }
      for (const [httpStatus, response] of Object.entries((schema.response ?? {}) as Record<string, unknown>)) {
        assert.doesNotThrow(
          () => serializer({ schema: response, method: String(method), url, httpStatus }),
          `${String(method)} ${url} ${httpStatus}`,
        );
        serializers++;
      }
    }
    // The console's routes alone check far more than this; a count near zero means onRoute saw nothing.
    assert.ok(checks > 50, `${checks} checks`);
    assert.ok(serializers > 50, `${serializers} serialisers`);
  });

  test('no route check is compiled at start; a request compiles its own once', async () => {
    const query = schemaOf('/v1/bulletin/page').querystring;
    assert.ok(query !== undefined);
    const routeParts = new Set(routes.flatMap(({ schema }) => parts.map((part) => schema?.[part]).filter(Boolean)));
    assert.deepEqual(
      atStart.filter((schema) => routeParts.has(schema)),
      [],
    );

    const compiledQuery = () => compile.mock.calls.filter((call) => call.arguments[0] === query).length;
    const before = compiledQuery();
    assert.equal((await t.app.inject('/v1/bulletin/page?page_index=1&page_size=5')).statusCode, 200);
    assert.equal(compiledQuery(), before + 1);
    // Coerced and checked as before: text to a number, and a bad value refused with Ajv's message.
    const refused = await t.app.inject('/v1/bulletin/page?page_index=0');
    assert.equal(refused.statusCode, 400);
    assert.match(refused.json<{ msg: string }>().msg, /page_index must be >= 1/);
    assert.equal(compiledQuery(), before + 1);
  });

  test("the server's compilers put off a broken schema's error until its first use", () => {
    const { buildValidator, buildSerializer } = schemaController.compilersFactory ?? {};
    assert.ok(buildValidator !== undefined && buildSerializer !== undefined);
    const check = (buildValidator as unknown as () => typeof validatorCompiler)()({
      schema: broken,
      method: 'GET',
      url: '/x',
      httpPart: 'querystring',
    });
    const serialize = buildSerializer({}, undefined)({ schema: broken, method: 'GET', url: '/x', httpStatus: '200' });
    assert.throws(() => check({ a: 1 }), /can't resolve reference/);
    assert.throws(() => serialize({ a: 1 }), /definitions\/missing/);
  });
});
