/**
 * Whether a CDN bucket serves this site's hosted files (docs/admin-api.md#checking-the-cdn): the
 * server keeps a small probe file among its hosted files and fetches it through the bucket URL
 * exactly as the site would rewrite its address (`<bucket>/<key>`), with a short timeout. The
 * answer says whether it answered, with what status, in how long, and whether the bytes were the
 * probe's. Redirects are followed only within the bucket's own origin; one to another host is
 * reported (its origin only), not followed. Every connection goes to a public address, or to one
 * the operator allowed (./cdn-address.ts).
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type BlockList } from 'node:net';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { bytesBody, findFile, storeFile } from '../files/repository.js';
import { request as httpRequest } from '../lib/node-http.js';
import type { FileStorage } from '../storage/index.js';
import { AddressRefusedError, guardedLookup, mayConnect, refusedMessage } from './cdn-address.js';

const probeText = "chat-site CDN probe: if you can read this, the CDN serves the site's hosted files.\n";
const probeBytes = Buffer.from(probeText, 'utf8');
const probeSha256 = createHash('sha256').update(probeBytes).digest('hex');
/** Content-addressed like every hosted file, so it never changes meaning and caches forever. */
export const probeKey = `${probeSha256.slice(0, 16)}-cdn-probe.txt`;

const maxRedirects = 3;
/** Read at most this much of an answer: the probe is far smaller. */
const maxBodyBytes = 64 * 1024;

export interface CdnCheck {
  bucket_url: string;
  probe_url: string;
  /** Whether an HTTP answer came back at all (any status). */
  answered: boolean;
  status: number | null;
  /** Milliseconds from the first request to the end of the last answer's body, or to the failure. */
  ms: number;
  /** The answer was 200 with exactly the probe's bytes. */
  ok: boolean;
  /** The origin of a redirect to another origin, reported and not followed. */
  redirected_to: string | null;
  error: string | null;
}

/** Puts the probe file among the hosted files if it is not there yet. */
export async function ensureProbe(db: Kysely<Database>, storage: FileStorage): Promise<void> {
  if ((await findFile(db, probeKey)) !== undefined) return;
  await storeFile(db, storage, {
    name: 'cdn-probe.txt',
    contentType: 'text/plain; charset=utf-8',
    body: bytesBody(probeBytes),
    rules: { maxBytes: probeBytes.length },
    uploadedBy: 'cdn-check',
  });
}

export async function checkCdn(bucketUrl: string, timeoutMs: number, allowed: BlockList): Promise<CdnCheck> {
  const probeUrl = `${bucketUrl.replace(/\/+$/, '')}/${probeKey}`;
  const started = performance.now();
  const result = (fields: Partial<CdnCheck>): CdnCheck => ({
    bucket_url: bucketUrl,
    probe_url: probeUrl,
    answered: false,
    status: null,
    ms: Math.round(performance.now() - started),
    ok: false,
    redirected_to: null,
    error: null,
    ...fields,
  });
  const signal = AbortSignal.timeout(timeoutMs);
  let url = new URL(probeUrl);
  try {
    for (let hop = 0; ; hop++) {
      const answer = await get(url, signal, allowed);
      const status = answer.statusCode ?? 0;
      const location = answer.headers.location;
      if (status >= 300 && status < 400 && location !== undefined) {
        answer.destroy();
        const next = new URL(location, url);
        // Only where it points, never its path or query: those are the redirecting server's to tell.
        if (next.origin !== url.origin) {
          return result({ answered: true, status, redirected_to: next.origin });
        }
        if (hop >= maxRedirects) {
          return result({ answered: true, status, error: `more than ${maxRedirects} redirects` });
        }
        url = next;
        continue;
      }
      const body = await readAtMost(answer, maxBodyBytes);
      const same = createHash('sha256').update(body).digest('hex') === probeSha256;
      return result({
        answered: true,
        status,
        ok: status === 200 && same,
        error: status === 200 && !same ? 'it answered, but not with the probe file' : null,
      });
    }
  } catch (error) {
    if (error instanceof AddressRefusedError) return result({ error: error.message });
    const timedOut = signal.aborted;
    return result({ error: timedOut ? `no answer within ${timeoutMs} ms` : reasonOf(error) });
  }
}

/** One GET, over a connection of its own to an address the check may connect to: a name goes
 * through guardedLookup, an address written in the URL is checked here (Node connects to one
 * without a lookup). */
function get(url: URL, signal: AbortSignal, allowed: BlockList): Promise<IncomingMessage> {
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(literal) !== 0 && !mayConnect(literal, allowed)) {
    return Promise.reject(new AddressRefusedError(refusedMessage(url.hostname)));
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(url, {
      agent: false,
      lookup: guardedLookup(allowed),
      signal,
      headers: { 'user-agent': 'chat-site-cdn-check' },
    });
    request.once('response', resolve).once('error', reject).end();
  });
}

async function readAtMost(answer: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of answer as AsyncIterable<Buffer>) {
    total += chunk.byteLength;
    chunks.push(chunk);
    if (total > limit) break;
  }
  answer.destroy();
  return Buffer.concat(chunks);
}

/** The system's code (ECONNREFUSED, ENOTFOUND) says more to an operator than its sentence. */
function reasonOf(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  return code ?? message ?? String(error);
}
