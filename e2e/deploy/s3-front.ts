/**
 * A recording front for the test S3 server (testing/s3-server.ts): the address both the server
 * (S3_ENDPOINT) and nginx's /internal-s3/ location use, passing every request on to s3rver and
 * keeping what arrived, so a test can see what nginx asked the store for. s3rver does not check
 * V4 signatures; `signatureHolds` does, the way S3 would.
 */
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { request as httpRequest, createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { S3RequestPresigner } from '@aws-sdk/s3-request-presigner';

export interface Arrival {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

export interface S3Front {
  /** http://127.0.0.1:port */
  endpoint: string;
  /** Requests that came with a presigned query (X-Amz-Signature), oldest first. */
  presigned: Arrival[];
  /** The next presigned request is answered 403 with an S3 error body, not passed on. */
  refuseNext(): void;
  close(): Promise<void>;
}

export async function startS3Front(target: string): Promise<S3Front> {
  const presigned: Arrival[] = [];
  let refuse = false;
  const to = new URL(target);
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url.includes('X-Amz-Signature=')) {
      presigned.push({ method: req.method ?? '', url, headers: req.headers });
      if (refuse) {
        refuse = false;
        res.writeHead(403, { 'content-type': 'application/xml' });
        res.end('<Error><Code>SignatureDoesNotMatch</Code><AWSAccessKeyId>S3RVER</AWSAccessKeyId></Error>');
        return;
      }
    }
    const onward = httpRequest(
      { host: to.hostname, port: to.port, method: req.method, path: url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    onward.on('error', () => res.destroy());
    req.pipe(onward);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    presigned,
    refuseNext: () => (refuse = true),
    close: () => new Promise((closed) => server.close(() => closed())),
  };
}

/** Whether a presigned request's signature is right for the method, path, query and Host it
 * arrived with: signed again with the same date and lifetime, it must come out the same. */
export async function signatureHolds(arrival: Arrival, credentials: { accessKeyId: string; secretAccessKey: string }) {
  const url = new URL(arrival.url, 'http://placeholder');
  const given = url.searchParams.get('X-Amz-Signature');
  const date = url.searchParams.get('X-Amz-Date') ?? '';
  const expiresIn = Number(url.searchParams.get('X-Amz-Expires'));
  const region = (url.searchParams.get('X-Amz-Credential') ?? '').split('/')[2] ?? '';
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) if (!name.startsWith('X-Amz-')) query[name] = value;
  const [hostname = '', port] = (arrival.headers.host ?? '').split(':');
  const presigner = new S3RequestPresigner({ credentials, region, sha256: NodeSha256 });
  const signed = await presigner.presign(
    {
      method: arrival.method,
      protocol: 'http:',
      hostname,
      port: port === undefined ? undefined : Number(port),
      path: url.pathname,
      query,
      headers: { host: arrival.headers.host ?? '' },
    },
    {
      signingDate: new Date(date.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z')),
      expiresIn,
    },
  );
  return signed.query?.['X-Amz-Signature'] === given;
}

/** SHA-256 and its HMAC as the signer wants them. */
type Bytes = string | ArrayBuffer | ArrayBufferView;
const toBuffer = (data: Bytes) =>
  typeof data === 'string'
    ? Buffer.from(data)
    : ArrayBuffer.isView(data)
      ? Buffer.from(data.buffer, data.byteOffset, data.byteLength)
      : Buffer.from(data);

class NodeSha256 {
  private readonly hash: Hash | Hmac;
  constructor(secret?: Bytes) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', toBuffer(secret));
  }
  update(data: Bytes): void {
    this.hash.update(toBuffer(data));
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
}
