/** What the stopping tests of one server and of its workers share. */
import { request } from 'node:http';
import { adminToken, type ServerProcess } from './helpers.js';

const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** An upload whose body arrives in two parts, with SIGTERM sent to `server` in between; answers
 * what the server said to it. */
export function uploadAcrossStop(server: ServerProcess): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const req = request(
      `${server.url}/v1/admin/files?name=slow.png`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${adminToken}`,
          'content-type': 'image/png',
          'content-length': png.byteLength,
        },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => done({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', fail);
    req.write(png.subarray(0, 10));
    setTimeout(() => {
      server.child.kill('SIGTERM');
      setTimeout(() => req.end(png.subarray(10)), 300);
    }, 200);
  });
}
