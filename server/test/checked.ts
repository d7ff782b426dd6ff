/**
 * An admin answer read the way the console reads it: checked against the schema the server and
 * the console share (packages/contract/src/admin), so a test fails when the two part.
 */
import assert from 'node:assert/strict';
import type { Static, TSchema } from 'typebox';
import { Value } from 'typebox/value';

export function checked<T extends TSchema>(schema: T, res: { body: string }): Static<T> {
  const body: unknown = JSON.parse(res.body);
  const errors = () => JSON.stringify([...Value.Errors(schema, body)].slice(0, 5));
  assert.ok(Value.Check(schema, body), `${res.body.slice(0, 300)}\n${errors()}`);
  return body as Static<T>;
}
