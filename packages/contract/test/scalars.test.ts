import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatDate, formatMonthDay, readFlag, readId, readTimestamp } from '../src/index.js';

describe('readFlag', () => {
  test('1, "1" and true are true', () => {
    assert.equal(readFlag(1), true);
    assert.equal(readFlag('1'), true);
    assert.equal(readFlag(true), true);
  });

  test('everything else is false', () => {
    for (const value of [0, '0', false, 2, 'true', 'yes', ' 1', null, undefined, {}, []]) {
      assert.equal(readFlag(value), false, `readFlag(${JSON.stringify(value)})`);
    }
  });
});

describe('readId', () => {
  test('12 and "12" read as the same id', () => {
    assert.equal(readId(12), '12');
    assert.equal(readId('12'), '12');
    assert.equal(readId(12), readId('12'));
  });

  test('strings are trimmed; empty strings, non-finite numbers and other values are no id', () => {
    assert.equal(readId(' 7 '), '7');
    assert.equal(readId(''), undefined);
    assert.equal(readId('  '), undefined);
    assert.equal(readId(Number.NaN), undefined);
    assert.equal(readId(Infinity), undefined);
    assert.equal(readId(null), undefined);
    assert.equal(readId(undefined), undefined);
    assert.equal(readId({ id: 1 }), undefined);
  });
});

describe('readTimestamp', () => {
  test('canonical "YYYY-MM-DD HH:MM:SS" passes through unchanged, whatever the zone', () => {
    assert.equal(readTimestamp('2024-05-01 10:00:00'), '2024-05-01 10:00:00');
    assert.equal(readTimestamp('2024-05-01 10:00:00', 'UTC'), '2024-05-01 10:00:00');
  });

  test('unix seconds (a number) become Asia/Shanghai wall clock by default', () => {
    assert.equal(readTimestamp(1714528800), '2024-05-01 10:00:00');
  });

  test('unix seconds as a numeric string', () => {
    assert.equal(readTimestamp('1714528800'), '2024-05-01 10:00:00');
  });

  test('unix milliseconds', () => {
    assert.equal(readTimestamp(1714528800000), '2024-05-01 10:00:00');
    assert.equal(readTimestamp(1714528800123), '2024-05-01 10:00:00');
  });

  test('the seconds/milliseconds boundary is 1e12', () => {
    assert.equal(readTimestamp(1e12), '2001-09-09 09:46:40');
    // Just below the boundary is seconds, which lands past year 9999: unreadable.
    assert.equal(readTimestamp(1e12 - 1), '');
    assert.equal(readTimestamp(1e12 - 1, 'UTC'), '');
  });

  test('ISO-8601 with Z', () => {
    assert.equal(readTimestamp('2024-05-01T02:00:00Z'), '2024-05-01 10:00:00');
    assert.equal(readTimestamp('2024-04-30T16:30:00.000Z'), '2024-05-01 00:30:00');
  });

  test('ISO-8601 with an offset, in +HH:MM, +HHMM and +HH forms', () => {
    assert.equal(readTimestamp('2024-05-01T10:00:00+08:00'), '2024-05-01 10:00:00');
    assert.equal(readTimestamp('2024-05-01T03:00:00+0100'), '2024-05-01 10:00:00');
    assert.equal(readTimestamp('2024-04-30T21:00:00-05'), '2024-05-01 10:00:00');
  });

  test('ISO-8601 with Go nanoseconds', () => {
    assert.equal(readTimestamp('2024-05-01T10:00:59.999999999+08:00'), '2024-05-01 10:00:59');
  });

  test('an explicit time zone', () => {
    assert.equal(readTimestamp(1714528800, 'UTC'), '2024-05-01 02:00:00');
    assert.equal(readTimestamp('2024-05-01T02:00:00Z', 'Europe/Berlin'), '2024-05-01 04:00:00');
  });

  test('midnight reads as 00, not 24', () => {
    assert.equal(readTimestamp('2024-04-30T16:00:00Z'), '2024-05-01 00:00:00');
  });

  test('an afternoon reads on the 24-hour clock, noon and the last second of the day too', () => {
    assert.equal(readTimestamp('2024-05-01T07:30:05Z'), '2024-05-01 15:30:05');
    assert.equal(readTimestamp('2024-05-01T04:00:00Z'), '2024-05-01 12:00:00');
    assert.equal(readTimestamp('2024-05-01T15:59:59Z'), '2024-05-01 23:59:59');
  });

  test('a date-only string becomes midnight', () => {
    assert.equal(readTimestamp('2024-05-01'), '2024-05-01 00:00:00');
  });

  test('ISO without a zone is taken as wall clock already', () => {
    assert.equal(readTimestamp('2024-05-01T10:00:00'), '2024-05-01 10:00:00');
  });

  test('unreadable values give ""', () => {
    for (const value of [
      '',
      'yesterday',
      '2024/05/01',
      '2024-13-01T00:00:00Z',
      null,
      undefined,
      {},
      true,
      NaN,
      0,
      -5,
    ]) {
      assert.equal(readTimestamp(value), '', `readTimestamp(${String(value)})`);
    }
  });
});

describe('formatMonthDay and formatDate', () => {
  test('slice a wall-clock string', () => {
    assert.equal(formatMonthDay('2024-05-01 10:00:00'), '05-01');
    assert.equal(formatDate('2024-05-01 10:00:00'), '2024-05-01');
  });

  test('zero-pad single-digit months and days', () => {
    assert.equal(formatMonthDay('2024-5-1 10:00:00'), '05-01');
    assert.equal(formatDate('2024-5-1'), '2024-05-01');
  });

  test('give "" when unreadable', () => {
    for (const text of ['', 'soon', '2024-00-10 10:00:00', '2024-05-32', '05-01']) {
      assert.equal(formatMonthDay(text), '', text);
      assert.equal(formatDate(text), '', text);
    }
  });
});
