/**
 * The operator console's files at /admin: its page for every console address (the console
 * routes in the browser), its preview frame, and its hashed assets. Its own policy: scripts,
 * styles and connections only to this server, pictures from here or over HTTPS (a CDN), and
 * frames only of its own preview. See docs/console.md#how-it-is-built.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { SiteConfig } from '@chat-site/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { beforeHeadEnd } from '../lib/head-insert.js';
import { siteConfigMeta } from '../page/routes.js';

const policy = (frameAncestors: string, styleNonce?: string) =>
  [
    "default-src 'self'",
    "script-src 'self'",
    ["style-src 'self'", ...(styleNonce === undefined ? [] : [`'nonce-${styleNonce}'`])].join(' '),
    "img-src 'self' data: blob: https:",
    "font-src 'self'",
    "connect-src 'self'",
    "frame-src 'self'",
    "worker-src 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');

/** The preview is framed by the console, and by nothing else. */
const previewPolicy = policy("'self'");

export async function consoleRoutes(
  app: FastifyInstance,
  { root, site }: { root: string; site: SiteConfig },
): Promise<void> {
  if (!existsSync(join(root, 'index.html'))) return;
  // Read once: the page is small and changes only with a new build (and a restart).
  const page = readFileSync(join(root, 'index.html'), 'utf8');
  // The dialogs' scroll lock (Radix, through react-style-singleton) adds a <style> element; it
  // carries this nonce, new for every load of the page, which the console hands it
  // (console/src/main.tsx). No other inline style is allowed.
  const sendConsole = (reply: FastifyReply) => {
    const nonce = randomBytes(16).toString('base64');
    const body = Buffer.from(beforeHeadEnd(page, `<meta name="csp-nonce" content="${nonce}">`));
    return sendPage(reply, body, policy("'none'", nonce), 'DENY');
  };
  // The preview draws with the site's components, which read the site's settings from the page.
  const preview = Buffer.from(beforeHeadEnd(readFileSync(join(root, 'preview.html'), 'utf8'), siteConfigMeta(site)));

  const sendPage = (reply: FastifyReply, body: Buffer, csp: string, frames: 'DENY' | 'SAMEORIGIN') =>
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', csp)
      .header('x-frame-options', frames)
      .header('x-robots-tag', 'noindex, nofollow')
      .send(body);

  await app.register(fastifyStatic, {
    root: join(root, 'assets'),
    prefix: '/admin/assets/',
    decorateReply: false,
    index: false,
    preCompressed: false,
    cacheControl: false,
    setHeaders: (res) => void res.setHeader('cache-control', 'public, max-age=31536000, immutable'),
  });
  app.get('/admin/preview.html', { schema: { hide: true } }, async (_request, reply) =>
    sendPage(reply, preview, previewPolicy, 'SAMEORIGIN'),
  );
  // Every other address under /admin is a screen of the console, drawn in the browser.
  app.get('/admin', { schema: { hide: true } }, async (_request, reply) => sendConsole(reply));
  app.get('/admin/*', { schema: { hide: true } }, async (request, reply) => {
    if (request.url.startsWith('/admin/assets/')) {
      return reply.status(404).send({ status: 404, msg: 'not found' });
    }
    return sendConsole(reply);
  });
}
