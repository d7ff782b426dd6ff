/**
 * The admin API as the server's tests call it: in-process, with the bearer token. Takes the app
 * through a getter, since test files start theirs in `before`.
 */
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { bearer, type TestApp } from './helpers.js';

export type AdminCall = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
  headers?: Record<string, string>,
) => Promise<LightMyRequestResponse>;

/** `admin('PUT', '/bulletins/1', body)` calls `/v1/admin/bulletins/1` on the app `app()` gives. */
export function adminCalls(app: () => TestApp['app']): {
  admin: AdminCall;
  createBulletin(body: object): Promise<number>;
} {
  const admin: AdminCall = (method, url, payload, headers = {}) =>
    app().inject({ method, url: `/v1/admin${url}`, headers: { ...bearer, ...headers }, ...(payload && { payload }) });
  return {
    admin,
    /** A new announcement (published now unless `body` says otherwise); answers its id. */
    async createBulletin(body) {
      const res = await admin('POST', '/bulletins', { content: '<p>正文</p>', ...body });
      assert.equal(res.statusCode, 201, res.body);
      return res.json<{ id: number }>().id;
    },
  };
}
