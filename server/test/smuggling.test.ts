/**
 * Published request-smuggling shapes (the CL.TE, TE.CL and TE.TE variants of PortSwigger's
 * research and of the HTTP request smuggling test suites) sent to the server as shipped, with the
 * socket's reader in front (pipeline/replay-connections.ts): each gets the answers Node's HTTP parser
 * alone gives, written out here, and the same as a server with SOCKET_REPLAYS=0
 * (twin-servers.ts). The request hidden in each is a GET of the test route with `?smuggled`: where
 * it is read as a request, the route says so. Runs on SQLite, and on PostgreSQL with
 * TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { cachedPaths, echoPath, exchange, startTwins, type Twins } from './twin-servers.js';

const [detail = ''] = cachedPaths;
/** The request a smuggler hides in a body. */
const hidden = `GET ${echoPath}?smuggled HTTP/1.1\r\nHost: localhost\r\n\r\n`;
/** A plain cached read, which the socket's reader answers itself when it comes first. */
const cached = `GET ${detail} HTTP/1.1\r\nHost: localhost\r\n\r\n`;
const post = (fields: string, body: string) =>
  `POST ${echoPath} HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\n${fields}\r\n${body}`;
const chunk = (text: string) => `${text.length.toString(16)}\r\n${text}\r\n`;

interface Case {
  name: string;
  bytes: string;
  /** The status of each answer, in order, as Node alone gives them. */
  statuses: number[];
  /** The targets the test route saw, in any order (a route waiting for a body may run later). */
  seen: string[];
}

const smuggled = `${echoPath}?smuggled`;
const cases: Case[] = [
  {
    name: 'CL.TE: Content-Length and Transfer-Encoding both',
    bytes:
      cached + post(`Content-Length: ${5 + hidden.length}\r\nTransfer-Encoding: chunked\r\n`, `0\r\n\r\n${hidden}`),
    statuses: [200, 400],
    seen: [],
  },
  {
    name: 'TE.CL: Transfer-Encoding first, a short Content-Length',
    bytes: cached + post('Transfer-Encoding: chunked\r\nContent-Length: 4\r\n', `${chunk(hidden)}0\r\n\r\n`),
    statuses: [200, 400],
    seen: [],
  },
  ...[
    ['Transfer-Encoding: xchunked', 'an unknown coding'],
    ['Transfer-Encoding : chunked', 'a space before the colon'],
    ['Transfer-Encoding:\tchunked', 'a tab before the value'],
    ['Transfer-Encoding:  chunked ', 'spaces around the value'],
    ['Transfer-Encoding: chunked\r\nTransfer-Encoding: x', 'a second Transfer-Encoding'],
    ['Transfer-Encoding: chunked, identity', 'chunked, then identity'],
    ['Transfer-Encoding: identity, chunked', 'identity, then chunked'],
    ['Transfer-Encoding: Chunked', 'in capitals'],
    ['X: y\nTransfer-Encoding: chunked', 'after a bare LF'],
    ['X: y\r\n Transfer-Encoding: chunked', 'folded into the line before'],
    ['Transfer-Encoding\r\n : chunked', 'its value folded onto the next line'],
    ['Transfer-Encoding: chunked\u0000', 'a NUL after the value'],
  ].map(([field, how]): Case => ({
    name: `TE.TE: ${how} (${JSON.stringify(field)}) with a Content-Length`,
    bytes: cached + post(`Content-Length: 5\r\n${field}\r\n`, `0\r\n\r\n${hidden}`),
    statuses: [200, 400],
    seen: [],
  })),
  ...[
    ['-1', 'negative'],
    ['+5', 'with a plus sign'],
    ['0x5', 'in hex'],
    ['5, 5', 'as a list'],
    ['5\r\nContent-Length: 6', 'twice, differing'],
    ['5 5', 'two numbers'],
    ['99999999999999999999999', 'beyond any integer'],
  ].map(([value, how]): Case => ({
    name: `Content-Length ${how} (${JSON.stringify(value)})`,
    bytes: cached + post(`Content-Length: ${value}\r\n`, `hello${hidden}`),
    statuses: [200, 400],
    seen: [],
  })),
  {
    name: 'a body on a GET hides a request from a reader that ignores it',
    bytes: `GET ${detail} HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${hidden.length}\r\n\r\n${hidden}${cached}`,
    statuses: [200, 200],
    seen: [],
  },
  {
    name: 'a chunked body on a GET',
    bytes: `GET ${detail} HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n${chunk(hidden)}0\r\n\r\n${cached}`,
    statuses: [200, 200],
    seen: [],
  },
  {
    name: 'a chunk size that overflows',
    bytes: cached + post('Transfer-Encoding: chunked\r\n', `ffffffffffffffffff1\r\n${hidden}\r\n0\r\n\r\n`),
    statuses: [200, 400],
    seen: [],
  },
  {
    name: 'a chunk extension hiding a request',
    bytes: cached + post('Transfer-Encoding: chunked\r\n', `5;${hidden.replaceAll('\r\n', ' ')}\r\nhello\r\n0\r\n\r\n`),
    statuses: [200, 400],
    seen: [],
  },
  {
    name: 'a whole chunked body, then the hidden request in plain sight',
    bytes: cached + post('Transfer-Encoding: chunked\r\n', `${chunk('hello')}0\r\n\r\n${hidden}`),
    statuses: [200, 200, 200],
    seen: [echoPath, smuggled],
  },
  {
    name: 'two Host headers (Node takes the first)',
    bytes: `GET ${detail} HTTP/1.1\r\nHost: localhost\r\nHost: other.example\r\n\r\n${cached}`,
    statuses: [200, 200],
    seen: [],
  },
  {
    name: 'an absolute target naming another host',
    bytes: `GET http://other.example${detail} HTTP/1.1\r\nHost: localhost\r\n\r\n${cached}`,
    statuses: [200, 200],
    seen: [],
  },
];

describe('request smuggling shapes get the answers of Node’s HTTP parser alone', () => {
  let twins: Twins;

  before(async () => {
    twins = await startTwins();
  });
  after(() => twins.close());

  for (const { name, bytes, statuses, seen } of cases) {
    test(name, async () => {
      const sent = [Buffer.from(bytes, 'latin1')];
      const withReader = await exchange(twins.reader, sent, false);
      const withNode = await exchange(twins.node, sent, false);
      assert.deepEqual(withReader, withNode);
      const answered = [...withReader.answers.matchAll(/(?:^|\r\n\r\n|\})HTTP\/1\.1 (\d{3}) /g)].map((m) =>
        Number(m[1]),
      );
      assert.deepEqual(answered, statuses);
      assert.deepEqual(withReader.seen.map((view) => (JSON.parse(view) as string[])[1]).sort(), [...seen].sort());
    });
  }
});
