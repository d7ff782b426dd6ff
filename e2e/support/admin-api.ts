/** What browser tests do by hand beside the page: the admin API with the token, as a script
 * would use it, and waiting for what the server does by itself (its schedule). */
import assert from 'node:assert/strict';
import { adminToken, type RunningServer } from './server.js';

/** Calls `/v1/admin{path}` on `server` with the token; fails the test on a refusal. */
export async function adminApi<T>(server: RunningServer, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.url}/v1/admin${path}`, {
    method,
    headers: {
      authorization: `Bearer ${adminToken}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await response.text();
  assert.ok(response.ok, `${method} ${path}: ${response.status} ${text}`);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** Asks `check` until it holds, for at most `ms`: for what another process does on its own
 * clock (the server's schedule check), where the test has no event to wait on. */
export async function eventually(check: () => Promise<boolean>, ms = 8_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((wait) => setTimeout(wait, 200));
  }
  return check();
}
