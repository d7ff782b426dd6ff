/**
 * For `npm run bench:api`: Node's bare `http` module, answering GET /<name> with the bytes of the
 * file <name> in the directory BENCH_FILES names, from memory, with only Content-Type and
 * Content-Length. What Node can do at most with those bytes: in one process, the reference for
 * the server with one worker; with BENCH_PROCESSES above 1, that many processes under
 * `node:cluster` as the server's workers are, the ceiling for the server on every core. Listens on
 * 127.0.0.1:PORT.
 */
import cluster from 'node:cluster';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

const processes = Number(process.env.BENCH_PROCESSES ?? '1');
if (cluster.isPrimary && processes > 1) {
  for (let i = 0; i < processes; i++) cluster.fork();
} else {
  serve();
}

function serve(): void {
  const dir = process.env.BENCH_FILES ?? '';
  const bodies = new Map(readdirSync(dir).map((name) => [`/${name}`, readFileSync(join(dir, name))]));

  createServer((request, response) => {
    const body = bodies.get(request.url ?? '');
    if (body === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    response.end(body);
  }).listen(Number(process.env.PORT), '127.0.0.1');
}
