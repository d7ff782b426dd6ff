/**
 * Which worker did what, read from the built server's log lines (each carries its process's pid),
 * and requests on connections of their own, so that each may land on either worker.
 */
import { request } from 'node:http';
import type { ServerProcess } from './helpers.js';

export interface LogLine {
  pid: number;
  msg: string;
  url?: string;
  status?: number;
}

/** Each server's log lines parsed so far: parsed once each, as a busy server writes thousands. */
const parsed = new WeakMap<string[], { upTo: number; lines: LogLine[] }>();

export function lines(server: Pick<ServerProcess, 'logs'>): LogLine[] {
  const done = parsed.get(server.logs) ?? { upTo: 0, lines: [] };
  parsed.set(server.logs, done);
  for (const line of server.logs.slice(done.upTo)) {
    try {
      done.lines.push(JSON.parse(line) as LogLine);
    } catch {
      // not JSON: a stack trace, say
    }
  }
  done.upTo = server.logs.length;
  return done.lines;
}

/** A line as `logged` sees it: one that is not JSON comes with its text as `msg`. */
function parseLine(text: string): LogLine {
  try {
    return JSON.parse(text) as LogLine;
  } catch {
    return { pid: 0, msg: text };
  }
}

/** Waits until the server has written a line that `check` accepts (parseLine); answers it. */
export async function logged(
  server: ServerProcess,
  check: (line: LogLine) => boolean,
  limitMs = 20_000,
): Promise<LogLine> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, fail) => {
    timer = setTimeout(
      () => fail(new Error(`no such log line within ${limitMs} ms:\n${server.logs.join('\n')}`)),
      limitMs,
    );
  });
  try {
    return parseLine(await Promise.race([server.logged((line) => check(parseLine(line))), limit]));
  } finally {
    clearTimeout(timer);
  }
}

/** Waits until the server writes a line from the `from`th on (counted in `server.logs`) that
 * `check` accepts; answers it. */
export async function loggedAfter(
  server: ServerProcess,
  from: number,
  check: (line: LogLine) => boolean,
  limitMs?: number,
): Promise<LogLine> {
  const earlier = server.logs.slice(0, from).map(parseLine).filter(check).length;
  let seen = 0;
  return logged(server, (line) => check(line) && ++seen > earlier, limitMs);
}

/**
 * A GET on a connection of its own, which any worker may accept (docs/scaling.md#workers). The
 * path goes out as written: a URL parser (fetch's, inject's) would drop `.` and `%2e` segments.
 */
export function getAlone(url: string): Promise<{ status: number; body: string }> {
  const { origin } = new URL(url);
  const pathAt = url.indexOf('/', url.indexOf('//') + 2);
  const path = pathAt < 0 ? '/' : url.slice(pathAt);
  return new Promise((done, fail) => {
    const req = request(origin, { agent: false, path, headers: { connection: 'close' } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => done({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

/**
 * Asks `path` on connections of its own, at least `atLeast` times and until `workers` different
 * processes have answered, and fails after `limit` asks: the kernel does not deal connections to
 * the workers by turns, so a few asks can all land on one. `path` may be a function, called for
 * each ask, when each ask needs a URL (and so a log line) of its own. Answers each ask's status,
 * body and the pid that answered it, read from the request log.
 */
export async function askEveryWorker(
  server: ServerProcess,
  path: string | (() => string),
  { workers = 2, atLeast = 1, limit = 100 } = {},
): Promise<{ status: number; body: string; pid: number }[]> {
  const answers: { status: number; body: string; pid: number }[] = [];
  while (answers.length < atLeast || new Set(answers.map(({ pid }) => pid)).size < workers) {
    if (answers.length === limit) {
      const asked = typeof path === 'string' ? path : 'their paths';
      throw new Error(`${workers} workers did not answer ${asked} within ${limit} asks`);
    }
    const url = typeof path === 'string' ? path : path();
    const from = server.logs.length;
    const { status, body } = await getAlone(`${server.url}${url}`);
    const line = await loggedAfter(server, from, (line) => line.msg === 'request' && line.url === url);
    answers.push({ status, body, pid: line.pid });
  }
  return answers;
}
