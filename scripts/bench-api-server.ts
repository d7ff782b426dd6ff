/**
 * For `npm run bench:api`: Node's bare `http` module in one process, answering GET /<name> with
 * the bytes of the file <name> in the directory BENCH_FILES names, from memory, with only
 * Content-Type and Content-Length. What one Node process can do at most with those bytes: the
 * reference for the server with one worker. Listens on 127.0.0.1:PORT.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

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
