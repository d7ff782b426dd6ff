/**
 * For openapi-statuses.test.ts: the calls that produce each status of the resumable upload
 * routes (tus, files/uploads.ts), on uploads started for the purpose.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { bearer } from './helpers.js';
import type { Call } from './openapi-calls.js';

/** A disk image the intake takes: its 512-byte trailer starts with koly. */
export const dmg = () => Buffer.concat([Buffer.alloc(600), Buffer.from('koly'), Buffer.alloc(508)]);
const tus = { ...bearer, 'tus-resumable': '1.0.0' };
const chunk = { ...tus, 'content-type': 'application/offset+octet-stream' };
const metadata = (name: string) => `filename ${Buffer.from(name).toString('base64')}`;
const none = '/v1/admin/uploads/0123456789abcdef0123456789abcdef';
const ok = (request: InjectOptions, status = 200): Call => ({ status, request });

interface Deps {
  inject(request: InjectOptions, status: number): Promise<LightMyRequestResponse>;
  uploadDir: string;
}

export function uploadCalls({ inject, uploadDir }: Deps): Record<string, () => Promise<Call[]>> {
  const bytes = dmg();
  /** A new resumable upload of `bytes` named `name`; answers its address. */
  const started = async (name = 'app.dmg') => {
    const headers = { ...tus, 'upload-length': String(bytes.length), 'upload-metadata': metadata(name) };
    return String((await inject({ method: 'POST', url: '/v1/admin/uploads', headers }, 201)).headers.location);
  };
  /** One that expired: its start moved back a year in its info file. */
  const expired = async () => {
    const location = await started();
    const info = join(uploadDir, `${location.split('/').at(-1) ?? ''}.json`);
    assert.ok(readdirSync(uploadDir).includes(`${location.split('/').at(-1)}.json`), info);
    const stored = JSON.parse(readFileSync(info, 'utf8')) as { creation_date: string };
    stored.creation_date = new Date(Date.now() - 365 * 86_400_000).toISOString();
    writeFileSync(info, JSON.stringify(stored));
    return location;
  };
  return {
    'POST /v1/admin/uploads': async () => {
      const post = (headers: Record<string, string>, payload?: Buffer): InjectOptions => ({
        method: 'POST',
        url: '/v1/admin/uploads',
        headers,
        ...(payload !== undefined && { payload }),
      });
      const length = { 'upload-length': String(bytes.length) };
      return [
        ok(post({ ...tus, ...length, 'upload-metadata': metadata('app.dmg') }), 201),
        ok(post({ ...tus, ...length, 'upload-metadata': metadata('notes.txt') }), 400),
        ok(post({ ...bearer, ...length, 'upload-metadata': metadata('app.dmg') }), 412),
        ok(post({ ...tus, 'upload-length': String(10 ** 12), 'upload-metadata': metadata('app.dmg') }), 413),
      ];
    },
    'HEAD /v1/admin/uploads/{id}': async () => [
      ok({ method: 'HEAD', url: await started(), headers: tus }),
      ok({ method: 'HEAD', url: none, headers: tus }, 404),
      ok({ method: 'HEAD', url: await expired(), headers: tus }, 410),
      ok({ method: 'HEAD', url: await started(), headers: bearer }, 412),
    ],
    'PATCH /v1/admin/uploads/{id}': async () => {
      const patch = (url: string, offset: number, payload: Buffer, headers: Record<string, string> = chunk) => ({
        method: 'PATCH' as const,
        url,
        headers: { ...headers, 'upload-offset': String(offset) },
        payload,
      });
      const first = await started();
      return [
        ok(patch(first, 0, bytes.subarray(0, 100)), 204),
        ok(patch(first, 100, bytes.subarray(100))),
        ok(patch(await started('fake.dmg'), 0, Buffer.alloc(bytes.length, 1)), 400),
        ok(patch(await started(), 0, Buffer.alloc(0), tus), 403),
        ok(patch(none, 0, bytes), 404),
        ok(patch(await started(), 5, bytes), 409),
        ok(patch(await expired(), 0, bytes), 410),
        ok(patch(await started(), 0, bytes, { ...bearer, 'content-type': 'application/offset+octet-stream' }), 412),
        ok(patch(await started(), 0, Buffer.concat([bytes, bytes])), 413),
      ];
    },
    'DELETE /v1/admin/uploads/{id}': async () => [
      ok({ method: 'DELETE', url: await started(), headers: tus }, 204),
      ok({ method: 'DELETE', url: none, headers: tus }, 404),
      ok({ method: 'DELETE', url: await started(), headers: bearer }, 412),
    ],
  };
}
