import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { blocksDownload, downloadKinds, inAppBrowser, inAppBrowsers } from '../src/in-app.js';
import { inAppAgents, ordinaryAgents } from './in-app-user-agents.js';

describe('inAppBrowser', () => {
  for (const agent of inAppAgents) {
    test(`knows ${agent.name}`, () => assert.equal(inAppBrowser(agent.userAgent), agent.app));
  }

  test('every app has an Android and an iOS agent among the fixtures', () => {
    for (const app of inAppBrowsers)
      for (const os of ['android', 'ios'])
        assert.ok(
          inAppAgents.some((agent) => agent.app === app && agent.os === os),
          `${app} on ${os}`,
        );
  });

  for (const [name, userAgent] of Object.entries(ordinaryAgents)) {
    test(`takes ${name} for no app`, () => assert.equal(inAppBrowser(userAgent), undefined));
  }

  test('takes nothing for an empty or absent agent', () => assert.equal(inAppBrowser(''), undefined));
});

describe('blocksDownload', () => {
  test('every app blocks files and TestFlight; only Douyin and TikTok block the App Store too', () => {
    for (const app of inAppBrowsers)
      for (const kind of downloadKinds)
        assert.equal(blocksDownload(app, kind), kind !== 'app-store' || app === 'douyin', `${app} ${kind}`);
  });
});
