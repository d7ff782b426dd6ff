/**
 * Byte streams a client could send on one connection, for the differential test of the socket's
 * reader (socket-reader-fuzz.test.ts): pipelines of one to five requests, mostly to the cached
 * reads the reader may answer, with every header that frames a request (Content-Length,
 * Transfer-Encoding), written the odd ways that parsers have disagreed on (case, spacing, obs-fold,
 * bare LF or CR, NUL, duplicates), bodies that do or do not match them, and garbage; each cut into
 * pieces that arrive one by one.
 */
import fc from 'fast-check';
import { cachedPaths, echoPath, warmEncodings } from './twin-servers.js';

/** Stands for the length of the part that follows, worked out once the stream is put together. */
const nextLength = '\u0000next-length\u0000';

const weighted = <T>(...choices: [number, T][]): fc.Arbitrary<T> =>
  fc.oneof(...choices.map(([weight, value]) => ({ weight, arbitrary: fc.constant(value) })));

const lineEnd = weighted([20, '\r\n'], [1, '\n'], [1, '\r'], [1, '\r\r\n']);

const method = weighted(
  [12, 'GET'],
  [4, 'HEAD'],
  [3, 'POST'],
  [1, 'PUT'],
  [1, 'OPTIONS'],
  [1, 'DELETE'],
  [1, 'get'],
  [1, 'GET '],
  [1, 'CONNECT'],
  [1, 'G\u0000ET'],
);

const target = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...cachedPaths) },
  { weight: 4, arbitrary: fc.constantFrom(echoPath, `${echoPath}?q=1`) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '*',
      '',
      `http://localhost${cachedPaths[0] ?? ''}`,
      `${cachedPaths[0] ?? ''}#part`,
      `${cachedPaths[0] ?? ''}\u0000`,
      `${cachedPaths[0] ?? ''} x`,
      '/v1/bulletin/detail?id=1&id=1',
      '/%2e%2e/v1/common/appconfig',
    ),
  },
);

const version = weighted(
  [16, 'HTTP/1.1'],
  [1, 'HTTP/1.0'],
  [1, 'HTTP/1.2'],
  [1, 'HTTP/2.0'],
  [1, 'http/1.1'],
  [1, 'HTTP/1.1 '],
);

/** Between a field's name and its value. */
const separator = weighted([16, ': '], [3, ':'], [1, ' : '], [1, ' :'], [1, ':\t'], [1, ': \t'], [1, ':  ']);

const contentLength = weighted(
  [6, nextLength],
  [2, '0'],
  [1, '5'],
  [1, '27'],
  [1, '-1'],
  [1, '+5'],
  [1, '0x5'],
  [1, ` ${nextLength}`],
  [1, `${nextLength}, ${nextLength}`],
  [1, `${nextLength} 1`],
  [1, '1e1'],
  [1, ''],
  [1, '99999999999999999999'],
);

const transferEncoding = weighted(
  [6, 'chunked'],
  [1, 'Chunked'],
  [1, 'xchunked'],
  [1, 'chunked, identity'],
  [1, 'identity, chunked'],
  [1, 'gzip, chunked'],
  [1, 'identity'],
  [1, ' chunked'],
  [1, 'chunked\u0000'],
  [1, 'chunk'],
  [1, '"chunked"'],
  [1, 'chunked, chunked'],
);

const fieldName = (name: string) =>
  weighted<string>([12, name], [2, name.toLowerCase()], [1, name.toUpperCase()], [1, `${name} `], [1, `${name}\u0000`]);

const field = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fieldName('Content-Length'), contentLength) },
  { weight: 4, arbitrary: fc.tuple(fieldName('Transfer-Encoding'), transferEncoding) },
  {
    weight: 3,
    arbitrary: fc.tuple(fieldName('Accept-Encoding'), fc.constantFrom(...warmEncodings.filter(Boolean), '*', 'BR')),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(
      fieldName('Connection'),
      fc.constantFrom('keep-alive', 'close', 'Upgrade', 'keep-alive, close'),
    ),
  },
  { weight: 1, arbitrary: fc.tuple(fieldName('Upgrade'), fc.constantFrom('websocket', 'h2c')) },
  { weight: 1, arbitrary: fc.tuple(fieldName('Expect'), fc.constantFrom('100-continue', 'nothing')) },
  { weight: 1, arbitrary: fc.tuple(fieldName('Host'), fc.constantFrom('localhost', 'other.example', '')) },
  { weight: 1, arbitrary: fc.tuple(fieldName('X-No-Compression'), fc.constant('1')) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom('X-A', 'x-b', 'X-Forwarded-For'), fc.constantFrom('1', 'a b', 'é\u00ff')),
  },
);

/** A field line as sent: sometimes with a NUL, trailing space, or an obs-fold line after it. */
const fieldLine = fc
  .tuple(
    field,
    separator,
    weighted([16, ''], [1, ' '], [1, '\t'], [1, '\u0000']),
    weighted([20, ''], [1, ' folded'], [1, '\tfolded']),
    lineEnd,
    lineEnd,
  )
  .map(([[name, value], sep, trail, fold, end, foldEnd]) =>
    fold === '' ? `${name}${sep}${value}${trail}${end}` : `${name}${sep}${value}${trail}${end}${fold}${foldEnd}`,
  );

const host = weighted(
  [10, 'Host: localhost\r\n'],
  [1, ''],
  [1, 'Host: localhost\r\nHost: localhost\r\n'],
  [1, 'Host:\r\n'],
);

const head = fc
  .tuple(method, target, version, lineEnd, host, fc.array(fieldLine, { maxLength: 3 }), lineEnd, fc.boolean())
  .map(([m, t, v, end, h, fields, blank, hostLast]) =>
    hostLast
      ? `${m} ${t} ${v}${end}${fields.join('')}${h}${blank}`
      : `${m} ${t} ${v}${end}${h}${fields.join('')}${blank}`,
  );

/** A request the socket's reader may take: a cached read, plainly written. */
const plainHead = fc
  .tuple(
    weighted([3, 'GET'], [1, 'HEAD']),
    fc.constantFrom(...cachedPaths),
    fc.constantFrom(...warmEncodings),
    fc.boolean(),
  )
  .map(
    ([m, t, encoding, more]) =>
      `${m} ${t} HTTP/1.1\r\nHost: localhost\r\n${encoding === '' ? '' : `Accept-Encoding: ${encoding}\r\n`}` +
      `${more ? 'X-A: 1\r\n' : ''}\r\n`,
  );

const data = fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', '\r', '\n', '\u0000', 'é'), maxLength: 24 });

const chunkedBody = fc
  .tuple(
    data,
    weighted([6, ''], [1, ';ext=1'], [1, ' '], [1, '\t']),
    lineEnd,
    weighted([6, '0\r\n\r\n'], [1, '0\r\n'], [1, '']),
  )
  .map(([bytes, ext, end, last]) =>
    bytes.length === 0 ? last : `${bytes.length.toString(16)}${ext}${end}${bytes}\r\n${last}`,
  );

const garbage = fc.oneof(
  fc.constantFrom('xyz\r\n\r\n', '\r\n', '\r\n\r\n', 'HTTP/1.1 200 OK\r\n\r\n', '\u0000', 'GET\r\n\r\n'),
  data,
);

const part = fc.oneof(
  { weight: 8, arbitrary: head },
  { weight: 2, arbitrary: chunkedBody },
  { weight: 1, arbitrary: garbage },
);

/** Puts parts together, each Content-Length of the next part's length as that length. */
function assemble(parts: string[]): string {
  return parts
    .map((text, index) => text.replaceAll(nextLength, String(Buffer.byteLength(parts[index + 1] ?? '', 'latin1'))))
    .join('');
}

export interface Stream {
  /** The bytes, one character each (latin1), as fast-check shows a failing one. */
  text: string;
  /** Where the stream is cut into pieces sent one after another. */
  cuts: number[];
  /** The client ends its side with the last piece, not once the server has read it. */
  endWithLast: boolean;
}

/** A stream of up to five requests, each maybe followed by a body or garbage. */
export const stream: fc.Arbitrary<Stream> = fc
  .tuple(
    fc.array(fc.tuple(fc.oneof(plainHead, head), fc.option(part, { freq: 3 })), { minLength: 1, maxLength: 5 }),
    fc.array(fc.nat(), { maxLength: 3 }),
    fc.boolean(),
  )
  .map(([requests, cuts, endWithLast]) => {
    const text = assemble(requests.flatMap(([h, p]) => (p === null ? [h] : [h, p])));
    const at = [...new Set(cuts.map((cut) => 1 + (cut % Math.max(1, text.length - 1))))].sort((a, b) => a - b);
    return { text, cuts: at.filter((cut) => cut < text.length), endWithLast };
  });

/** A short stream (one or two small requests), to be sent cut at each of its points in turn. */
export const shortStream: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('GET', 'HEAD', 'POST'),
    fc.constantFrom(...cachedPaths.slice(0, 1), '/v1/common/appconfig', echoPath),
    fc.constantFrom('', 'Content-Length: 0\r\n', 'Transfer-Encoding: chunked\r\n', 'Accept-Encoding: br\r\n'),
    fc.option(fc.constantFrom(`GET /v1/common/appconfig HTTP/1.1\r\nHost: a\r\n\r\n`, '0\r\n\r\n', 'xyz\r\n\r\n')),
  )
  .map(([m, t, f, after]) => `${m} ${t} HTTP/1.1\r\nHost: a\r\n${f}\r\n${after ?? ''}`);

/** The pieces `stream` is sent in. */
export function pieces({ text, cuts }: Pick<Stream, 'text' | 'cuts'>): Buffer[] {
  const ends = [...cuts, text.length];
  return ends.map((end, index) => Buffer.from(text.slice(index === 0 ? 0 : ends[index - 1], end), 'latin1'));
}
