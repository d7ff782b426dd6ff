/**
 * Whether a CDN bucket serves this site's hosted files (docs/operations.md#checking-the-cdn): the
 * server keeps a small probe file among its hosted files and fetches it through the bucket URL
 * exactly as the site would rewrite its address (`<bucket>/<key>`), with a short timeout. The
 * answer says whether it answered, with what status, in how long, and whether the bytes were the
 * probe's. Redirects are followed only within the bucket's own origin; one to another host is
 * reported, not followed.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { bytesBody, findFile, storeFile } from '../files/repository.js';
import type { FileStorage } from '../storage/index.js';

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
  /** A redirect to another origin, reported and not followed. */
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

export async function checkCdn(bucketUrl: string, timeoutMs: number): Promise<CdnCheck> {
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
      const answer = await fetch(url, { redirect: 'manual', signal, headers: { 'user-agent': 'chat-site-cdn-check' } });
      const location = answer.headers.get('location');
      if (answer.status >= 300 && answer.status < 400 && location !== null) {
        await answer.body?.cancel();
        const next = new URL(location, url);
        if (next.origin !== url.origin) {
          return result({ answered: true, status: answer.status, redirected_to: next.href });
        }
        if (hop >= maxRedirects) {
          return result({ answered: true, status: answer.status, error: `more than ${maxRedirects} redirects` });
        }
        url = next;
        continue;
      }
      const body = await readAtMost(answer, maxBodyBytes);
      const same = createHash('sha256').update(body).digest('hex') === probeSha256;
      return result({
        answered: true,
        status: answer.status,
        ok: answer.status === 200 && same,
        error: answer.status === 200 && !same ? 'it answered, but not with the probe file' : null,
      });
    }
  } catch (error) {
    const timedOut = signal.aborted;
    return result({ error: timedOut ? `no answer within ${timeoutMs} ms` : reasonOf(error) });
  }
}

async function readAtMost(answer: Response, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  if (answer.body === null) return Buffer.alloc(0);
  for await (const chunk of answer.body) {
    total += chunk.byteLength;
    chunks.push(Buffer.from(chunk));
    if (total > limit) {
      await answer.body.cancel().catch(() => undefined);
      break;
    }
  }
  return Buffer.concat(chunks);
}

/** fetch's own message is "fetch failed"; the reason is in its cause (ECONNREFUSED, ENOTFOUND). */
function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
