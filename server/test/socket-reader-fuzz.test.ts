/**
 * The socket's reader (pipeline/replay-connections.ts) answers every byte stream as Node's HTTP parser
 * alone does: the same raw bytes go to a server as shipped and to one with SOCKET_REPLAYS=0, and
 * the answers (all but their Date lines) and what the test route saw must be the same
 * (twin-servers.ts). Generated streams (http-streams.ts) from a fixed seed here; `npm run fuzz`
 * tries more from a new one (FUZZ_RUNS, FUZZ_SEED; docs/architecture.md#replays-on-the-socket).
 * Each stream a search has found to differ is kept below as an example. Runs on SQLite, and on
 * PostgreSQL with TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { pieces, shortStream, stream, type Stream } from './http-streams.js';
import { cachedPaths, echoPath, exchange, startTwins, type Twins } from './twin-servers.js';

const seed = Number(process.env.FUZZ_SEED || 572_026);
const runs = Number(process.env.FUZZ_RUNS || 1500);
const shortRuns = Math.max(1, Math.round(runs / 250));

describe('the socket’s reader answers as Node’s HTTP parser alone', () => {
  let twins: Twins;

  before(async () => {
    twins = await startTwins();
  });
  after(() => twins.close());

  /** Sends `stream` to both servers and fails on any difference. */
  async function sameAnswers({ text, cuts, endWithLast }: Stream): Promise<void> {
    const sent = pieces({ text, cuts });
    const withReader = await exchange(twins.reader, sent, endWithLast);
    const withNode = await exchange(twins.node, sent, endWithLast);
    assert.deepEqual(withReader, withNode, `${JSON.stringify(text)} cut at ${JSON.stringify(cuts)}`);
  }

  test(`${runs} generated streams, seed ${seed}`, { timeout: 600_000 }, async () => {
    const before = twins.reader.app.fastPath?.replayedOnSockets ?? 0;
    await fc.assert(fc.asyncProperty(stream, sameAnswers), { seed, numRuns: runs });
    const taken = (twins.reader.app.fastPath?.replayedOnSockets ?? 0) - before;
    // Else the streams would only ever compare Node's parser with itself.
    if (runs >= 100) assert.ok(taken > runs / 4, `the reader answered ${taken} requests`);
  });

  test(`${shortRuns} short streams, each cut at every point`, { timeout: 600_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(shortStream, fc.boolean(), async (text, endWithLast) => {
        for (let cut = 1; cut < text.length; cut++) await sameAnswers({ text, cuts: [cut], endWithLast });
      }),
      { seed, numRuns: shortRuns },
    );
  });

  const [detail = '', page = ''] = cachedPaths;
  const get = (path: string, fields = '') => `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${fields}\r\n`;
  /** Name, bytes, the statuses answered (as Node alone gives them when no timing interferes), and whether the client ends its side with them. */
  const examples: [string, string, number[], boolean?][] = [
    [
      'a GET with a body, then a request Node cannot read',
      `GET ${page} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 27\r\n\r\nGET /v1/ping HTTP/1.1\r\n\r\n` +
        `GET ${page} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
      [200, 400],
    ],
    ['a cached read, then bytes Node cannot read', `${get(detail)}xyz\r\n\r\n`, [200, 400]],
    [
      'a cached read, then a bad chunked body',
      `${get(detail)}${get(detail, 'Transfer-Encoding: chunked\r\n')}${get(detail)}`,
      [200, 400],
    ],
    [
      'a route that answers before its bad body is read',
      `${get(detail)}HEAD /%2e%2e/v1/common/appconfig HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n${get(detail)}`,
      [200, 404, 400],
    ],
    [
      'Expect: 100-continue behind a cached read',
      `${get(detail)}${get(detail, 'Expect: 100-continue\r\n')}${get(detail)}`,
      [200, 100, 200, 200],
    ],
    [
      'Expect: 100-continue with a bad body',
      `${get(detail)}${get(detail, 'Transfer-Encoding:\tgzip, chunked\r\nExpect: 100-continue\r\n')}${get(detail)}`,
      [200, 100, 400],
    ],
    [
      'another Expect with a bad body',
      `${get(detail)}${get(detail, 'Transfer-Encoding:\tgzip, chunked\r\nExpect: nothing\r\n')}${get(detail)}`,
      [200, 400],
    ],
    [
      'a CONNECT behind a cached read',
      `${get(detail)}CONNECT ${detail} HTTP/1.1\r\nHost: localhost\r\n\r\n${get(detail)}`,
      [200],
    ],
    [
      'an answer that closes, then bad bytes',
      `HEAD ${echoPath} HTTP/1.1\r\nContent-Length: 5\r\n\r\nHEAD ${get(detail, 'Connection: \tkeep-alive\u0000\r\n')}`,
      [400],
    ],
    [
      'a PUT Fastify refuses, then bytes Node cannot read',
      `PUT ${detail} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\nxyz\r\n\r\n`,
      [404],
    ],
    // Found by `npm run fuzz` (seed 1694838838): the reader answered the first GET, and Node's
    // parser read the end before the second GET's route had answered.
    [
      'a client that ends inside the body of a request its route answers',
      `${get(detail)}${get(detail, 'Transfer-Encoding: chunked\r\n')}`,
      [200, 200, 400],
      true,
    ],
    [
      'a cached read and a POST sent with the client’s end',
      `${get(detail)}POST ${echoPath} HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\nhi`,
      [200, 200],
      true,
    ],
    // Found by `npm run fuzz` (seed 832834230): the route answers as soon as its head is read, and
    // Node's parser finds the chunked body bad in the same read. With the bytes handed over from
    // the reader, the 400 went out before the route's promises had run, and alone.
    [
      'a route that answers before its bad chunked body, then a bad request line',
      `GET ${echoPath} HTTP/1.1\r\nHost: localhost\r\ntransfer-encoding: gzip, chunked\r\n\r\n1\r\na\r\n` +
        `${get(detail, 'Host: localhost\r\n')}GET ${detail} HTTP/1.1 \r\n\r\n`,
      [200, 400],
    ],
    // Found while fixing the one above: with no piece of the body before the bad bytes, Node alone
    // answers before the route's promises run, so the route's answer never goes out.
    [
      'a route whose chunked body is bad from its first byte',
      `HEAD ${detail} HTTP/1.1\r\nHost: localhost\r\n\r\nGET ${echoPath} HTTP/1.0\r\nHost: localhost\r\n` +
        `transfer-encoding:Chunked\r\n\r\n${get(detail)}`,
      [200, 400],
    ],
  ];
  test('a client that ends its side with the last byte of a full read', async () => {
    // Node reads 64 KB at a time and learns of the end within the same read when the bytes fill
    // it: so the end comes while the reader is still answering the requests it took.
    const post = (body: string) =>
      `POST ${echoPath} HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const gets = get(detail).repeat(Math.floor((65_536 - 200) / get(detail).length));
    const text = gets + post('x'.repeat(65_536 - gets.length - post('').length - 2));
    assert.equal(text.length, 65_536);
    const { answers, seen } = await exchange(twins.reader, pieces({ text, cuts: [] }), true);
    assert.equal([...answers.matchAll(/HTTP\/1\.1 200 /g)].length, gets.length / get(detail).length + 1);
    assert.equal(seen.length, 1);
    await sameAnswers({ text, cuts: [], endWithLast: true });
  });

  // A request whose body turns out bad after its route has already answered keeps that answer:
  // whether the route was that quick is the database's timing (PostgreSQL answers later than
  // SQLite), for Node alone as for the reader, so those examples allow the route's answer too.
  const routeMayAnswer = new Set(['a cached read, then a bad chunked body', 'Expect: 100-continue with a bad body']);
  for (const [name, text, statuses, endWithLast = false] of examples) {
    test(name, async () => {
      const { answers } = await exchange(twins.reader, pieces({ text, cuts: [] }), endWithLast);
      const answered = [...answers.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((status) => Number(status[1]));
      const routeAnswered = [...statuses.slice(0, -1), 200, ...statuses.slice(-1)];
      if (routeMayAnswer.has(name) && answered.length === routeAnswered.length) {
        assert.deepEqual(answered, routeAnswered);
      } else {
        assert.deepEqual(answered, statuses);
      }
      await sameAnswers({ text, cuts: [], endWithLast });
      await sameAnswers({ text, cuts: [], endWithLast: !endWithLast });
    });
  }
});
