import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatDate, formatMonthDay } from '../src/index.js';

describe('dates per language', () => {
  test('zh-CN, the default, keeps the numeric form of the copy', () => {
    assert.equal(formatDate('2024-05-01 10:00:00', 'zh-CN'), '2024-05-01');
    assert.equal(formatMonthDay('2024-05-01 10:00:00', 'zh-CN'), '05-01');
    assert.equal(formatDate('2024-05-01 10:00:00'), formatDate('2024-05-01 10:00:00', 'zh-CN'));
  });

  test('zh-TW and en follow their own conventions', () => {
    assert.equal(formatDate('2024-05-01 10:00:00', 'zh-TW'), '2024/05/01');
    assert.equal(formatMonthDay('2024-05-01 10:00:00', 'zh-TW'), '05/01');
    assert.equal(formatDate('2024-05-01 10:00:00', 'en'), 'May 1, 2024');
    assert.equal(formatMonthDay('2024-5-1', 'en'), 'May 1');
  });

  test('the calendar day never moves with the zone: midnight and the last day of a year', () => {
    assert.equal(formatDate('2024-12-31 23:59:59', 'en'), 'Dec 31, 2024');
    assert.equal(formatDate('2025-01-01 00:00:00', 'en'), 'Jan 1, 2025');
  });

  test('a day past the end of its month is shown as sent, not rolled into the next month', () => {
    assert.equal(formatDate('2024-02-30', 'en'), '2024-02-30');
    assert.equal(formatMonthDay('2024-02-30', 'zh-TW'), '02-30');
  });

  test('"" when unreadable, in every language', () => {
    for (const language of ['zh-CN', 'zh-TW', 'en']) {
      for (const text of ['', 'soon', '2024-13-01', '05-01']) {
        assert.equal(formatDate(text, language), '', `${language} ${text}`);
        assert.equal(formatMonthDay(text, language), '', `${language} ${text}`);
      }
    }
  });
});
