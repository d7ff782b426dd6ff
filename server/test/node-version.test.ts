/** The Node.js releases the server starts on (docs/deploy.md#nodejs). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { supportedNode } from '../src/lib/node-version.js';

test('Node.js 22.12 and later start; 20, and 22 before 22.12, are refused', () => {
  for (const version of ['22.12.0', '22.23.3', '23.0.0', '24.21.0', '26.1.0'])
    assert.equal(supportedNode(version), true, version);
  for (const version of ['20.19.5', '21.7.3', '22.0.0', '22.11.0'])
    assert.equal(supportedNode(version), false, version);
});
