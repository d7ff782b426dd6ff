import { readJsonOrText } from '@chat-site/contract';
import { timeouts } from '../config/constants';
import { apiCalls, apiUrl, fetchApi } from './api-calls';
import { earlyAnswers } from './early-answers';

export { apiUrl } from './api-calls';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly url: string,
  ) {
    super(`HTTP ${status} from ${url}`);
    this.name = 'HttpError';
  }
}

type UnreachableListener = (url: string) => void;
const unreachableListeners = new Set<UnreachableListener>();

/** Calls `listener` with the URL of every `getJson` call that got no answer at all (refused,
 * reset, timed out): the sign that an address died. Answers a function that stops it. */
export function onUnreachable(listener: UnreachableListener): () => void {
  unreachableListeners.add(listener);
  return () => unreachableListeners.delete(listener);
}

/** How long an answer src/boot-route.ts asked for stays fresh enough to use. */
const earlyAnswerMaxAgeMs = 10_000;

/**
 * The answer to `url` that src/boot-route.ts asked for before this script ran, if it did and
 * not too long ago; `signal` then cancels that request, as it would the caller's own. Each is
 * used once.
 */
function takeEarlyAnswer(url: string, signal: AbortSignal): Promise<Response> | undefined {
  const early = earlyAnswers();
  const asked = early?.answers[url];
  if (early === undefined || asked === undefined) return undefined;
  early.answers[url] = undefined;
  if (Date.now() - early.at > earlyAnswerMaxAgeMs) return undefined;
  signal.addEventListener('abort', () => asked.controller.abort(signal.reason), { once: true });
  return untilAborted(asked.answer, signal);
}

/** `answer`, or the reason `signal` aborts with, whichever comes first. */
function untilAborted<T>(answer: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
    answer.then(resolve, reject);
  });
}

/** A GET with the `os: WEB` header every call carries, answered early when it can be. */
function request(url: string, signal: AbortSignal, cache: RequestCache): Promise<Response> {
  return takeEarlyAnswer(url, signal) ?? fetchApi(url, signal, cache);
}

/**
 * GET a JSON answer with the `os: WEB` header every call carries. The timeout is built by hand
 * rather than with AbortSignal.timeout/any, which older phone browsers lack. With `keepText`, a
 * body that is no JSON comes back as its text, as the HTTP clients of some server builds keep it
 * (docs/public-api.md#reading-other-server-builds).
 */
export async function getJson(
  url: string,
  timeoutMs: number = timeouts.defaultMs,
  keepText?: boolean,
): Promise<unknown> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('timed out', 'TimeoutError')), timeoutMs);
  try {
    let response: Response;
    try {
      response = await request(url, controller.signal, 'no-cache');
    } catch (error) {
      for (const listener of unreachableListeners) listener(url);
      throw error;
    }
    if (!response.ok) throw new HttpError(response.status, url);
    return keepText ? readJsonOrText(await response.text()) : ((await response.json()) as unknown);
  } finally {
    clearTimeout(timer);
  }
}

/** A ping succeeds only on status 200, within the ping timeout. */
export async function ping(apiAddr: string): Promise<boolean> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeouts.pingMs);
  try {
    const response = await request(apiUrl(apiAddr, apiCalls.ping), controller.signal, 'no-store');
    return response.status === 200;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** Failures that are only logged (docs/public-api.md#errors) go through here, so they are easy to
 * find. */
export function logFailure(what: string, error: unknown): void {
  console.warn(`[site] ${what}:`, error instanceof Error ? error.message : error);
}
