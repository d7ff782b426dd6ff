/**
 * `npm run screenshots`: every screen at phone and desktop width, in both themes, as PNGs in
 * .tmp/screenshots/, from the real server with demo content. For looking, not for asserting.
 * `npm run screenshots -- <text>` shoots only the shots whose name contains <text>.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { contextOptions, launchBrowser, viewports } from '../e2e/support/browser.js';
import { addOperator, signIn } from '../e2e/support/console.js';
import { adminToken, repoRoot, startServer } from '../e2e/support/server.js';

type Viewport = keyof typeof viewports;

/** Screens that need nothing but their address; they share one browser context. */
const routes = {
  landing: '/',
  download: '/#/download',
  'download-help': '/#/downloadHelp',
  announcements: '/#/announcements',
  'announcement-2': '/#/announcements/2',
  'announcement-single': '/#/announcement/11',
  changelog: '/#/changelog',
  'not-found': '/#/nope',
};

const userAgents = {
  android:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  windows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
};

interface Scene {
  path: string;
  /** Added to the viewport's context options; each scene has a fresh context. */
  context?: BrowserContextOptions;
  /** Brings the loaded page to the state worth a look. */
  prepare?: (page: Page) => Promise<void>;
}

const staleNote = '暂时无法连接服务器，以下是上次保存的内容，可能不是最新的。';

/** A first visit saves the answers; then every API address is cut and the page reloads. */
async function cutTheApi(page: Page): Promise<void> {
  await page.getByRole('main').locator('a[href]').first().waitFor();
  await page.context().route('**/v1/**', (route) => route.abort('connectionrefused'));
  await page.reload();
  await page.getByText(staleNote).first().waitFor({ timeout: 20_000 });
}

/** Screens that depend on the device, the language, scripts being off or the network. */
const scenes: Record<string, Scene> = {
  'download-windows-qr': {
    path: '/#/download',
    context: { userAgent: userAgents.windows },
    prepare: async (page) => {
      await page.locator('li[data-platform]').first().waitFor();
    },
  },
  'download-android': {
    path: '/#/download',
    context: { userAgent: userAgents.android },
    prepare: async (page) => {
      await page.locator('li[data-recommended]').waitFor();
    },
  },
  'landing-en': { path: '/?lang=en' },
  'landing-zh-TW': { path: '/?lang=zh-TW' },
  'download-en': { path: '/?lang=en#/download', context: { userAgent: userAgents.windows } },
  // What crawlers and readers without scripts see; with scripts it moves on to the announcement.
  'share-page-2': { path: '/a/2', context: { javaScriptEnabled: false } },
  // The worker is blocked so that the cut reaches every API request.
  'offline-announcements': {
    path: '/#/announcements',
    context: { serviceWorkers: 'block' },
    prepare: cutTheApi,
  },
  'offline-download': { path: '/#/download', context: { serviceWorkers: 'block' }, prepare: cutTheApi },
};

/** The operator console's screens (docs/console.md), signed in as an admin or an editor. */
interface ConsoleScene {
  path: string;
  as: 'admin' | 'editor' | null;
  prepare?: (page: Page) => Promise<void>;
}

const consoleScenes: Record<string, ConsoleScene> = {
  'console-sign-in': { path: '/admin', as: null, prepare: (page) => page.getByLabel('用户名').waitFor() },
  'console-list': { path: '/admin/bulletins', as: 'admin' },
  'console-editor': {
    path: '/admin/bulletins/2',
    as: 'admin',
    prepare: (page) => page.getByRole('textbox', { name: '正文' }).locator('p').first().waitFor(),
  },
  'console-preview': {
    path: '/admin/bulletins/2',
    as: 'admin',
    prepare: async (page) => {
      await page.getByRole('button', { name: '预览' }).click();
      await page.frameLocator('iframe').locator('.prose-bulletin').waitFor();
      await page.waitForTimeout(500);
    },
  },
  'console-conflict': {
    path: '/admin/bulletins/3',
    as: 'admin',
    prepare: async (page) => {
      await page.getByLabel('标题').waitFor();
      // Someone else saves first.
      const origin = new URL(page.url()).origin;
      await fetch(`${origin}/v1/admin/bulletins/3`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content: '<p>另一位运营同事刚刚改过这段正文。</p>' }),
      });
      await page.getByLabel('标题').fill('本周六凌晨服务器例行维护通知（已更新）');
      await page.getByRole('button', { name: '保存修改' }).click();
      await page.getByRole('dialog').waitFor();
    },
  },
  'console-link-dialog': {
    path: '/admin/bulletins/2',
    as: 'admin',
    prepare: async (page) => {
      const body = page.getByRole('textbox', { name: '正文' });
      await body.locator('p').first().click();
      await page.keyboard.press('ControlOrMeta+A');
      await page.getByRole('button', { name: '链接' }).click();
      await page.getByLabel('链接地址').waitFor();
    },
  },
  'console-picture-dialog': {
    // The demo's first announcement opens with a picture.
    path: '/admin/bulletins/1',
    as: 'admin',
    prepare: async (page) => {
      const picture = page.getByRole('textbox', { name: '正文' }).locator('img').first();
      await picture.click();
      await page.getByRole('button', { name: '图片说明' }).click();
      await page.getByLabel('说明文字').waitFor();
    },
  },
  'console-delete': {
    path: '/admin/bulletins/4',
    as: 'admin',
    prepare: async (page) => {
      await page.getByRole('button', { name: '删除' }).click();
      await page.getByRole('alertdialog').waitFor();
    },
  },
  'console-audit': { path: '/admin/audit', as: 'admin' },
  'console-releases': {
    path: '/admin/releases',
    as: 'admin',
    prepare: (page) => page.getByRole('article').first().waitFor(),
  },
  'console-release-form': {
    path: '/admin/releases',
    as: 'admin',
    prepare: async (page) => {
      await page.getByRole('button', { name: '发布新版本' }).first().click();
      await page.getByRole('form').first().waitFor();
    },
  },
  'console-settings': { path: '/admin/settings', as: 'admin' },
  'console-numbers': {
    path: '/admin/numbers',
    as: 'admin',
    prepare: (page) => page.locator('canvas').first().waitFor(),
  },
  'console-account': { path: '/admin/account', as: 'editor' },
  'console-editor-refused': {
    path: '/admin/audit',
    as: 'editor',
    prepare: (page) => page.getByText('需要管理员权限').first().waitFor(),
  },
};

const operators = {
  admin: { name: 'alice', password: 'alice-password-1' },
  editor: { name: 'bob', password: 'bob-password-12' },
} as const;

const only = process.argv[2];
const wanted = (name: string) => only === undefined || name.includes(only);
const outDir = join(repoRoot, '.tmp/screenshots');
mkdirSync(outDir, { recursive: true });

async function shoot(page: Page, name: string, viewport: Viewport, theme: string, scripts = true): Promise<void> {
  // A page without scripts would answer neither of these.
  if (scripts) {
    // Scroll through once so lazy images load before the full-page shot.
    await page.evaluate(async () => {
      for (let y = 0; y < document.body.scrollHeight; y += 600) {
        window.scrollTo(0, y);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      window.scrollTo(0, 0);
    });
    // A screen still loading something (a route reached by a hash change on the same page, where
    // networkidle answers at once) is shot once it has drawn it, or after 5 s as it stands.
    await page
      .waitForFunction(() => document.querySelector('[data-loading]') === null, undefined, { timeout: 5000 })
      .catch(() => undefined);
  }
  await page.waitForTimeout(400);
  const file = join(outDir, `${name}-${viewport}-${theme}.png`);
  await page.screenshot({ path: file, fullPage: true });
  // Phones also get the first screen alone, at full size, for a closer look.
  if (viewport === 'phone') await page.screenshot({ path: file.replace('.png', '-fold.png') });
  console.log(file);
}

const server = await startServer();
addOperator(server, operators.admin.name, 'admin', operators.admin.password);
addOperator(server, operators.editor.name, 'editor', operators.editor.password);
const browser = await launchBrowser();
const newPage = async (viewport: Viewport, theme: 'dark' | 'light', extra: BrowserContextOptions = {}) => {
  // The system's scheme matches too, for pages without the site's theme (the share page).
  const context = await browser.newContext(contextOptions(viewport, { colorScheme: theme, ...extra }));
  await context.addInitScript((value) => {
    localStorage.setItem('chat-site.theme', value);
    localStorage.setItem('chat-site-console-theme', value);
  }, theme);
  const page = await context.newPage();
  page.on('console', (message) => message.type() === 'error' && console.error(`[${viewport}] ${message.text()}`));
  return page;
};
try {
  for (const viewport of Object.keys(viewports) as Viewport[]) {
    for (const theme of ['dark', 'light'] as const) {
      const page = await newPage(viewport, theme);
      for (const [name, path] of Object.entries(routes)) {
        if (!wanted(name)) continue;
        await page.goto(`${server.url}${path}`, { waitUntil: 'networkidle' });
        await shoot(page, name, viewport, theme);
      }
      await page.context().close();
      for (const [name, scene] of Object.entries(scenes)) {
        if (!wanted(name)) continue;
        const scenePage = await newPage(viewport, theme, scene.context);
        await scenePage.goto(`${server.url}${scene.path}`, { waitUntil: 'networkidle' });
        await scene.prepare?.(scenePage);
        await shoot(scenePage, name, viewport, theme, scene.context?.javaScriptEnabled !== false);
        await scenePage.context().close();
      }
      for (const [name, scene] of Object.entries(consoleScenes)) {
        if (!wanted(name)) continue;
        const consolePage = await newPage(viewport, theme);
        if (scene.as !== null) {
          const operator = operators[scene.as];
          await signIn(consolePage, server, operator.name, operator.password);
        }
        await consolePage.goto(`${server.url}${scene.path}`, { waitUntil: 'networkidle' });
        await scene.prepare?.(consolePage);
        await shoot(consolePage, name, viewport, theme);
        await consolePage.context().close();
      }
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
