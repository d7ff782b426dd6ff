/**
 * The OpenAPI document tells the truth about statuses (docs/admin-api.md#api-documentation):
 * each documented operation is called in the situations that produce each status it lists, every
 * call answers the status it was made for, every status an operation lists is produced by one of
 * them, and every route the app registers is documented or left out on purpose
 * (openapi.test.ts). The calls shared by a kind of route (the admin door, bodies, conditional
 * GETs) are made from the document itself; the rest are in openapi-calls.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { InjectOptions } from 'fastify';
import { bearer } from './helpers.js';
import { blockedAddress, exempt, prepare, type Call, type Fixture } from './openapi-calls.js';

interface Operation {
  operationId?: string;
  responses: Record<string, unknown>;
  requestBody?: unknown;
}
type Document = { paths: Record<string, Record<string, Operation>> };

const bodyMethods = new Set(['post', 'put', 'patch', 'delete']);

/** The calls every operation of its kind gets, from what the document says of it. */
function sharedCalls(method: string, path: string, op: Operation, fixture: Fixture): Call[] {
  const url = fixture.sample(path);
  const upper = method.toUpperCase() as InjectOptions['method'];
  const calls: Call[] = [];
  const statuses = new Set(Object.keys(op.responses));
  const guarded = path.startsWith('/v1/admin/') && op.operationId !== 'signIn';
  if (guarded) {
    calls.push({ status: 401, request: { method: upper, url } });
    calls.push({
      status: 429,
      request: { method: upper, url, remoteAddress: blockedAddress, headers: { authorization: 'Bearer wrong' } },
    });
    // A change with the cookie from no origin; an editor's session on an admin-only read.
    const cookie = bodyMethods.has(method) ? fixture.adminCookie : fixture.editorCookie;
    if (statuses.has('403')) calls.push({ status: 403, request: { method: upper, url, headers: { cookie } } });
  }
  if (path.includes('{')) {
    const long = path.replace(/\{\w+\}/, 'k'.repeat(201));
    // A route that takes parameters of any length documents no 414; its own calls send them.
    if (statuses.has('414')) calls.push({ status: 414, request: { method: upper, url: long, headers: bearer } });
    calls.push({ status: 400, request: { method: upper, url: path.replace(/\{\w+\}/, '%zz'), headers: bearer } });
  }
  if (bodyMethods.has(method)) {
    const headers = op.operationId === 'signIn' ? {} : bearer;
    const json = { ...headers, 'content-type': 'application/json' };
    calls.push({ status: 400, request: { method: upper, url, headers: json, payload: '{' } });
    calls.push({ status: 413, request: { method: upper, url, headers: json, payload: `"${'x'.repeat(1_100_000)}"` } });
    const xml = { ...headers, 'content-type': 'application/xml' };
    calls.push({ status: 415, request: { method: upper, url, headers: xml, payload: '<x/>' } });
  }
  return calls;
}

describe('the OpenAPI document and the statuses the server answers', () => {
  let fixture: Fixture;
  let document: Document;
  before(async () => {
    fixture = await prepare();
    document = (await fixture.t.app.inject('/v1/openapi.json')).json<Document>();
  });
  after(async () => fixture?.close());

  test('every documented status is answered, and every answer is documented', async () => {
    const unprovoked: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const name = `${method.toUpperCase()} ${path}`;
        const own = fixture.calls[name];
        assert.ok(own !== undefined, `${name} (${op.operationId}) has no calls in openapi-calls.ts`);
        const answered = new Set<string>();
        for (const call of [...(await own()), ...sharedCalls(method, path, op, fixture)]) {
          const res = await (call.via ?? fixture.t.app).inject(call.request);
          assert.equal(res.statusCode, call.status, `${name}: ${JSON.stringify(call.request.headers)} ${res.body}`);
          answered.add(String(res.statusCode));
          // A read that answered 200 also answers 304 to a client holding its ETag.
          if (res.statusCode === 200 && method === 'get' && res.headers.etag !== undefined) {
            const again = await fixture.t.app.inject({
              ...call.request,
              headers: { ...call.request.headers, 'if-none-match': String(res.headers.etag) },
            });
            assert.equal(again.statusCode, 304, name);
            answered.add('304');
          }
        }
        const documented = Object.keys(op.responses);
        for (const status of answered)
          assert.ok(documented.includes(status), `${name} answers ${status}, undocumented`);
        for (const status of documented) {
          if (answered.has(status)) continue;
          if (exempt[`${name} ${status}`] !== undefined) unprovoked.push(`${name} ${status}`);
          else assert.fail(`${name} documents ${status}, which no call produced`);
        }
      }
    }
    assert.deepEqual(unprovoked.sort(), Object.keys(exempt).sort(), 'the exempt list names only what is documented');
  });

  test('every operation has a unique camelCase operationId, a summary, tags and security', () => {
    const ids = new Set<string>();
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, op] of Object.entries(operations) as [string, Operation & Record<string, unknown>][]) {
        const name = `${method} ${path}`;
        assert.match(String(op.operationId), /^[a-z][a-zA-Z]+$/, name);
        assert.ok(!ids.has(String(op.operationId)), `${name}: ${op.operationId} twice`);
        ids.add(String(op.operationId));
        assert.ok(typeof op.summary === 'string' && op.summary.length > 0, name);
        assert.ok(Array.isArray(op.tags) && op.tags.length === 1, name);
        assert.ok(Array.isArray(op.security), name);
        for (const [status, response] of Object.entries(op.responses) as [string, { description?: string }][]) {
          assert.ok(response.description && response.description !== 'Default Response', `${name} ${status}`);
        }
      }
    }
  });
});
