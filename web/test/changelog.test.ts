import assert from 'node:assert/strict';
import { before, beforeEach, describe, mock, test } from 'node:test';
import { readChangelog } from '@chat-site/contract';
import * as React from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { getChangelog } from '../src/features/changelog/api/get-changelog';
import { byPlatform, Releases } from '../src/features/changelog/components/changelog-screen';
import { formatMegabytes } from '../src/features/changelog/components/release-item';
import { setLanguage } from '../src/lib/i18n';

// tsx compiles the site's JSX with the classic runtime here (there is no tsconfig at the root to
// say otherwise), which calls the global React.
Object.assign(globalThis, { React });

const wire = [
  {
    app_version: '5.1.0',
    os: 'windows',
    is_force: 1,
    update_desc: '新功能\n- 更快',
    download_url: 'https://d/x.exe',
    created_at: '2025-07-01 10:00:00',
    size: 3 * 1024 * 1024,
  },
  {
    app_version: '3.1',
    os: 'ios',
    is_force: 0,
    update_desc: '',
    download_url: 'https://d/ios',
    created_at: '2025-06-01 12:00:00',
    size: null,
  },
  {
    app_version: '1.9.0',
    os: 'android',
    is_force: 0,
    update_desc: 'Android <b>修复</b>',
    download_url: 'https://d/a.apk',
    created_at: '2025-05-01 09:30:00',
    size: 52_428_800,
  },
  {
    app_version: '5.0.0',
    os: 'windows',
    is_force: 0,
    update_desc: '',
    download_url: 'https://d/y.exe',
    created_at: '2025-01-02 03:04:05',
    size: 1000,
  },
];

const render = (body: unknown) =>
  renderToStaticMarkup(React.createElement(Releases, { releases: readChangelog(body) }));
/** The markup's text, one space between elements. */
const textOf = (html: string) =>
  html
    .replace(/<br\/>/g, '\n')
    .replace(/<[^>]+>/g, ' ')
    .replace(/ +/g, ' ');

beforeEach(() => {
  mock.restoreAll();
  mock.method(console, 'warn', () => undefined);
});

describe('getChangelog', () => {
  test('reads the answer of /v1/common/changelog', async () => {
    const asked: string[] = [];
    mock.method(globalThis, 'fetch', async (url: string) => {
      asked.push(url);
      return new Response(JSON.stringify(wire), { headers: { 'content-type': 'application/json' } });
    });
    const releases = await getChangelog('https://api.example.com', 'zh-CN');
    await getChangelog('https://api.example.com', 'zh-TW');
    assert.deepEqual(asked, [
      'https://api.example.com/v1/common/changelog',
      'https://api.example.com/v1/common/changelog?lang=zh-TW',
    ]);
    assert.deepEqual(
      releases.map((release) => `${release.os} ${release.version}`),
      ['windows 5.1.0', 'ios 3.1', 'android 1.9.0', 'windows 5.0.0'],
    );
  });

  test('fails when there is no API address, or the call fails', async () => {
    await assert.rejects(getChangelog(null, 'zh-CN'));
    mock.method(globalThis, 'fetch', async () => new Response('oops', { status: 500 }));
    await assert.rejects(getChangelog('https://api.example.com', 'zh-CN'));
  });
});

describe('the changelog screen', () => {
  before(() => setLanguage('zh-CN'));

  test('groups releases per platform in the download order, each newest first', () => {
    const groups = byPlatform(readChangelog(wire));
    assert.deepEqual(
      groups.map(([os, own]) => [os, own.map((release) => release.version)]),
      [
        ['android', ['1.9.0']],
        ['ios', ['3.1']],
        ['windows', ['5.1.0', '5.0.0']],
      ],
    );
  });

  test('shows version, date, size in MB, forced updates and notes with their line breaks', () => {
    const html = render(wire);
    const text = textOf(html);
    assert.match(text, /Android 1 个版本/);
    assert.match(text, /Windows 2 个版本/);
    assert.doesNotMatch(text, /Mac/, 'a platform without releases has no section');
    assert.match(text, /5\.1\.0 强制更新 发布日期 2025-07-01 大小 3\.0 MB 新功能\n- 更快/);
    assert.match(text, /3\.1 发布日期 2025-06-01 暂无更新说明/, 'no size when unknown; a note for no notes');
    assert.match(text, /1\.9\.0 发布日期 2025-05-01 大小 50\.0 MB/);
    assert.ok(html.includes('Android &lt;b&gt;修复&lt;/b&gt;'), 'notes are text, never markup');
    assert.ok(text.indexOf('5.1.0') < text.indexOf('5.0.0'), 'newest first');
  });

  test('an empty changelog says so', () => {
    assert.match(textOf(render([])), /暂无更新记录/);
  });

  test('speaks the visitor language', async () => {
    await setLanguage('en');
    try {
      const text = textOf(render(wire));
      assert.match(text, /Windows 2 releases/);
      assert.match(text, /Required update/);
      assert.match(textOf(render([])), /No releases yet/);
    } finally {
      await setLanguage('zh-CN');
    }
  });

  test('sizes are MB with one decimal, never 0.0 MB for a real file', () => {
    assert.equal(formatMegabytes(3 * 1024 * 1024), '3.0 MB');
    assert.equal(formatMegabytes(1000), '0.1 MB');
    assert.equal(formatMegabytes(0), '0.0 MB');
  });
});
