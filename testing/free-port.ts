/**
 * Free TCP ports on 127.0.0.1, for the browser tests, the scripts and the server's tests. Run
 * directly (`node --import tsx testing/free-port.ts`), it prints one, for shell scripts.
 */
import { createServer, type AddressInfo, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';

function listen(server: Server): Promise<number> {
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => done((server.address() as AddressInfo).port));
  });
}

/**
 * One port per name that was free a moment ago and is free again now: all are held at once, so no
 * two are the same, then released. Nothing listens on them afterwards (a dead address), unless the
 * caller starts a server on one.
 */
export async function freePorts<const K extends string>(names: readonly K[]): Promise<Record<K, number>> {
  const servers = names.map(() => createServer());
  const ports = await Promise.all(servers.map(listen));
  await Promise.all(servers.map((server) => new Promise((done) => server.close(done))));
  return Object.fromEntries(names.map((name, index) => [name, ports[index]])) as Record<K, number>;
}

/** A port that is free right now. */
export async function freePort(): Promise<number> {
  return (await freePorts(['port'])).port;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.stdout.write(`${await freePort()}\n`);
