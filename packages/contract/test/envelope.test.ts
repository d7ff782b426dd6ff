import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ApiFailure, unwrapEnvelope } from '../src/index.js';

function failureOf(body: unknown): ApiFailure {
  try {
    unwrapEnvelope(body);
  } catch (error) {
    assert.ok(error instanceof ApiFailure);
    return error;
  }
  assert.fail('expected an ApiFailure');
}

describe('unwrapEnvelope', () => {
  test('a bare canonical body is returned as is', () => {
    const body = { count: 1, list: [{ id: 1 }] };
    assert.equal(unwrapEnvelope(body), body);
  });

  test('non-objects are returned as is', () => {
    const list = [1, 2];
    assert.equal(unwrapEnvelope(list), list);
    assert.equal(unwrapEnvelope('text'), 'text');
    assert.equal(unwrapEnvelope(null), null);
    assert.equal(unwrapEnvelope(7), 7);
  });

  test('{code: 0, msg, data} is unwrapped', () => {
    assert.deepEqual(unwrapEnvelope({ code: 0, msg: 'ok', data: { list: [] } }), { list: [] });
  });

  test('{errCode: 0, errMsg, data} is unwrapped', () => {
    assert.deepEqual(unwrapEnvelope({ errCode: 0, errMsg: '', data: [1] }), [1]);
  });

  test('{status, data} and {success: true, data} are unwrapped', () => {
    assert.deepEqual(unwrapEnvelope({ status: 200, data: { a: 1 } }), { a: 1 });
    assert.deepEqual(unwrapEnvelope({ success: true, data: { url: 'u' } }), { url: 'u' });
  });

  test('code "0" as a string is success', () => {
    assert.deepEqual(unwrapEnvelope({ code: '0', data: 5 }), 5);
  });

  test('data: null unwraps to null', () => {
    assert.equal(unwrapEnvelope({ code: 0, data: null }), null);
  });

  test('a non-zero numeric code is a failure carrying msg', () => {
    const error = failureOf({ code: 1001, msg: 'record not found', data: null });
    assert.equal(error.message, 'record not found');
    assert.equal(error.name, 'ApiFailure');
  });

  test('a non-zero numeric-string code is a failure', () => {
    assert.equal(failureOf({ code: '500', msg: 'boom', data: {} }).message, 'boom');
  });

  test('a non-zero errCode is a failure, its errMsg the message', () => {
    assert.equal(failureOf({ errCode: 1004, errMsg: 'args error', data: {} }).message, 'args error');
  });

  test('success: false is a failure even with a data key', () => {
    assert.equal(failureOf({ success: false, msg: 'no url', data: { url: 'x' } }).message, 'no url');
  });

  test('a failure marker without data also fails, with a default message when msg is not a string', () => {
    assert.equal(failureOf({ code: 7 }).message, 'the server reported a failure');
    assert.equal(failureOf({ code: 7, msg: 42 }).message, 'the server reported a failure');
  });

  test('non-numeric codes are not failure markers', () => {
    assert.equal(unwrapEnvelope({ code: 'OK', data: 1 }), 1);
    assert.equal(unwrapEnvelope({ code: null, data: 2 }), 2);
  });
});
