/**
 * The server's early rows write dates without an Intl formatter (server/src/page/row-date.ts),
 * and the site's script then draws the same rows with the contract's `formatDate`: both must
 * give the same text, day by day, in every language the site has.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatDate, languages } from '@chat-site/contract';
import { rowDate } from '../src/page/row-date.js';

test('a row date is the contract’s text for every day of five years, in every language', () => {
  const start = Date.UTC(2022, 0, 1);
  for (let day = 0; day < 5 * 366; day++) {
    const stamp = new Date(start + day * 86_400_000).toISOString().slice(0, 10);
    for (const language of languages) {
      for (const createdAt of [`${stamp} 09:30:00`, stamp]) {
        assert.equal(rowDate(createdAt, language), formatDate(createdAt, language), `${createdAt} in ${language}`);
      }
    }
  }
});

test('odd and broken dates come out as the contract writes them', () => {
  const odd = [
    '2024-02-30 10:00:00',
    '2023-02-29',
    '2024-5-1 10:00:00',
    '0024-05-01',
    '9999-12-31',
    '',
    ' ',
    'soon',
    '2024-13-01',
  ];
  for (const language of [...languages, 'fr']) {
    for (const createdAt of odd) {
      assert.equal(
        rowDate(createdAt, language),
        formatDate(createdAt, language),
        `${JSON.stringify(createdAt)} in ${language}`,
      );
    }
  }
  assert.equal(rowDate('2024-05-01 08:00:00', 'en'), 'May 1, 2024');
  assert.equal(rowDate('2024-05-01 08:00:00', 'zh-TW'), '2024/05/01');
  assert.equal(rowDate('2024-05-01 08:00:00', 'zh-CN'), '2024-05-01');
});
