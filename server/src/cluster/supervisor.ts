/**
 * The supervisor of WORKERS server processes (node:cluster) sharing one port: it starts them
 * once the database is migrated, restarts one that dies (waiting longer after each crash in a
 * row), replaces them one by one on SIGHUP, stops them gracefully on SIGTERM or SIGINT, and
 * relays "content changed" between them (cluster/peers.ts). It answers no request itself.
 * See docs/scaling.md#workers.
 */
import cluster, { type Worker } from 'node:cluster';
import { fileURLToPath } from 'node:url';
import type { SupervisorLogger as Logger } from './log.js';
import { isPeerMessage, readySignalVariable, type PeerMessage } from './peers.js';

/** How a preparing child that sent nothing ended. */
export interface PrepareFailure {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface SupervisorOptions {
  workers: number;
  shutdownTimeoutMs: number;
  log: Logger;
  /** Migrates the database with the build on disk now, as a start does (cluster/start.ts). */
  prepare(): Promise<PrepareFailure | undefined>;
}

/** A worker that lived this long was no crash loop: the next crash waits the shortest time again. */
const healthyAfterMs = 30_000;
const firstRestartMs = 250;
const longestRestartMs = 30_000;

/** What the workers run: the server's entry itself, not whatever started this process (`npm start`
 * runs scripts/start.mjs, which would check the build again in every worker). */
const workerEntry = fileURLToPath(new URL('../server.js', import.meta.url));

/**
 * The Node options of a worker: this process's, and V8 settings of its own for each the operator
 * has not chosen (docs/memory.md#the-young-generation, docs/performance.md#footprint):
 * - a young generation of a fixed 16 MB. Left to grow by itself from a small start it sometimes
 *   stays small, and such a worker answers cached reads about a quarter slower for its whole
 *   life; started at 16 MB but left to grow, it doubled to 32 MB and held about 20 MB more after
 *   a few thousand reads.
 * - optimising compilation on the worker's own thread. On V8's background threads it left
 *   8-19 MB that glibc kept for those threads at rest; the price is the first seconds of load
 *   after a start, while the hot functions are compiled.
 */
const workerDefaults = [
  { option: 'semi-space-size', flags: ['--min-semi-space-size=16', '--max-semi-space-size=16'] },
  { option: 'concurrent-recompilation', flags: ['--no-concurrent-recompilation'] },
];

export function workerExecArgv(execArgv: readonly string[], nodeOptions = ''): string[] {
  const given = [...execArgv, nodeOptions];
  const defaults = workerDefaults.filter(({ option }) => !given.some((text) => text.includes(option)));
  return [...execArgv, ...defaults.flatMap(({ flags }) => flags)];
}

/**
 * What a worker's environment adds to this process's: glibc's threshold for serving an allocation
 * with its own mapping fixed at its starting 128 KB, unless the operator set one of glibc's malloc
 * settings. Left to itself glibc raises the threshold each time such a mapping is freed, up to
 * 32 MB; V8's compilation memory then comes from the main heap, whose freed middle glibc keeps,
 * and a worker measured about 1 MB more at rest, some 3–5 MB more (docs/performance.md#footprint).
 */
export function workerEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const chosen = Object.keys(env).some((name) => name.startsWith('MALLOC_')) || env.GLIBC_TUNABLES !== undefined;
  return chosen ? {} : { MALLOC_MMAP_THRESHOLD_: String(128 * 1024) };
}

/**
 * Whether the workers accept new connections themselves from the listening socket the supervisor
 * opened (node:cluster's SCHED_NONE), rather than the supervisor accepting each one and passing it
 * to a worker (its round-robin, the default on Linux), unless the operator chose a policy with
 * NODE_CLUSTER_SCHED_POLICY. The kernel keeps one queue of new connections for them all, so one
 * worker closing its socket leaves the waiting connections to the others; the supervisor touches
 * none of them. Accepting in the supervisor cost it about 5 MB once it had passed a few hundred
 * connections, and one process doing it for all capped how many new connections a second the
 * workers could take (docs/scaling.md#workers).
 */
export function workersAccept(env: NodeJS.ProcessEnv): boolean {
  return env.NODE_CLUSTER_SCHED_POLICY === undefined;
}

export function supervise({ workers, shutdownTimeoutMs, log, prepare }: SupervisorOptions): void {
  // Frozen at the first fork or setupPrimary().
  if (workersAccept(process.env)) cluster.schedulingPolicy = cluster.SCHED_NONE;
  cluster.setupPrimary({ exec: workerEntry, execArgv: workerExecArgv(process.execArgv, process.env.NODE_OPTIONS) });
  const env = { ...workerEnv(process.env), [readySignalVariable]: '1' };
  /** The worker in service in each slot (0 … workers-1). */
  const inService = new Map<number, Worker>();
  const listening = new Set<Worker>();
  const crashes = new Map<number, number>();
  const relays = new Relays(log);
  // prom-client, which adds the workers' metrics up, is loaded at the first scrape only.
  let aggregator: Promise<{ clusterMetrics(): Promise<string> }> | undefined;
  let up = false;
  let stopping = false;
  let rolling = false;

  const start = (slot: number): Worker => {
    const worker = cluster.fork(env);
    const startedAt = Date.now();
    worker.on('message', (message: unknown) => {
      if (!isPeerMessage(message)) return;
      if (message.chatSite === 'listening') {
        listening.add(worker);
        // A worker started once the server is up (a replacement) joins workers that all listen.
        if (up) send(worker, { chatSite: 'all-listening' });
        if (!up && inService.size === workers && [...inService.values()].every((w) => listening.has(w))) {
          up = true;
          for (const each of inService.values()) send(each, { chatSite: 'all-listening' });
          log.info(
            { address: message.address, workers },
            `serving on ${message.address.replace('0.0.0.0', 'localhost')}`,
          );
        }
      } else if (message.chatSite === 'closed') {
        // node:cluster's own "closed" message came before this one: no more connections go there.
        listening.delete(worker);
        send(worker, { chatSite: 'closed-ack' });
      } else if (message.chatSite === 'metrics') {
        // prom-client asks every worker for its registry over this same channel and adds them up.
        aggregator ??= import('prom-client').then(({ AggregatorRegistry }) => new AggregatorRegistry());
        aggregator
          .then((registry) => registry.clusterMetrics())
          .then(
            (text) => send(worker, { chatSite: 'metrics-answer', id: message.id, text }),
            (error: unknown) => send(worker, { chatSite: 'metrics-answer', id: message.id, error: String(error) }),
          );
      } else relays.handle(worker, message, [...listening]);
    });
    worker.once('exit', (code, signal) => {
      listening.delete(worker);
      relays.gone(worker);
      if (stopping || inService.get(slot) !== worker) return;
      if (!up) {
        log.error({ code, signal }, 'a worker stopped before the server was up; stopping');
        void stop('start-up failure', 1);
        return;
      }
      const crashed = Date.now() - startedAt < healthyAfterMs ? (crashes.get(slot) ?? 0) + 1 : 1;
      crashes.set(slot, crashed);
      const delay = Math.min(longestRestartMs, firstRestartMs * 2 ** (crashed - 1));
      log.error({ code, signal, slot, restartInMs: delay }, 'a worker died; starting another');
      setTimeout(() => {
        if (!stopping && inService.get(slot) === worker) inService.set(slot, start(slot));
      }, delay);
    });
    return worker;
  };

  /** SIGHUP: the database prepared by the build on disk (its migrations), then a new worker for
   * each slot in turn, the old one stopped gracefully once the new one listens, so that the port
   * always has workers and no request is dropped. */
  const roll = async () => {
    if (rolling || stopping || !up) {
      log.warn({ up, rolling, stopping }, 'SIGHUP ignored: the workers are starting, being replaced or stopping');
      return;
    }
    rolling = true;
    log.info('preparing the database for new workers');
    const failed = await prepare();
    if (stopping) {
      // A stop came while the child prepared (it was sent the signal too): no new workers.
      rolling = false;
      return;
    }
    if (failed !== undefined) {
      rolling = false;
      log.error(failed, 'the database could not be prepared for new workers; the workers stay as they are');
      return;
    }
    log.info({ workers }, 'replacing the workers one by one');
    for (const [slot, old] of inService) {
      if (stopping) break;
      const fresh = start(slot);
      if (!(await listens(fresh, listening))) {
        log.error({ slot }, 'a new worker did not start; the others stay as they are');
        break;
      }
      inService.set(slot, fresh);
      const exited = exitOf(old);
      old.process.kill('SIGTERM');
      await exited;
    }
    rolling = false;
    log.info('workers replaced');
  };

  const stop = async (signal: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping: finishing requests in flight');
    // Each worker has SHUTDOWN_TIMEOUT_MS of its own; this is for one that hangs past it.
    const timer = setTimeout(() => {
      log.error('workers still running after SHUTDOWN_TIMEOUT_MS; ending them');
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
      process.exit(1);
    }, shutdownTimeoutMs + 2000);
    timer.unref();
    const alive = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && !w.isDead());
    const cleanly = await Promise.all(
      alive.map((worker) => {
        // A worker still starting has no SIGTERM handler yet and ends by the signal itself: with
        // nothing to finish, that is a clean stop too.
        const starting = !listening.has(worker);
        const exited = exitOf(worker);
        worker.process.kill('SIGTERM');
        return exited.then(({ code, signal }) => code === 0 || (starting && signal === 'SIGTERM'));
      }),
    );
    const clean = cleanly.every(Boolean);
    log.info({ workers: alive.length, clean }, 'stopped');
    process.exit(clean ? code : 1);
  };

  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  process.on('SIGHUP', () => void roll());
  for (let slot = 0; slot < workers; slot++) inService.set(slot, start(slot));
}

/** Resolves true once `worker` listens, false if it exits first. */
function listens(worker: Worker, listening: Set<Worker>): Promise<boolean> {
  return new Promise((done) => {
    const onMessage = (message: unknown) => {
      if (!isPeerMessage(message) || message.chatSite !== 'listening') return;
      worker.off('exit', onExit);
      // After the supervisor's own handler has counted it.
      setImmediate(() => done(listening.has(worker)));
    };
    const onExit = () => {
      worker.off('message', onMessage);
      done(false);
    };
    worker.on('message', onMessage);
    worker.once('exit', onExit);
  });
}

/** Resolves with how the worker ended: its exit code, or the signal that ended it. */
function exitOf(worker: Worker): Promise<{ code: number | null; signal: string | null }> {
  if (worker.isDead()) return Promise.resolve({ code: worker.process.exitCode, signal: worker.process.signalCode });
  return new Promise((done) =>
    worker.once('exit', (code: number | null, signal: string | null) => done({ code, signal })),
  );
}

/**
 * "Content changed" from one worker to all the others that listen, and "they all know" back once
 * each has acknowledged (or has gone).
 */
class Relays {
  readonly #pending = new Map<string, { origin: Worker; id: number; waitingFor: Set<Worker> }>();
  readonly #log: Logger;

  constructor(log: Logger) {
    this.#log = log;
  }

  handle(from: Worker, message: PeerMessage, listening: Worker[]): void {
    if (message.chatSite === 'changed' && !('origin' in message)) {
      const others = listening.filter((worker) => worker !== from && worker.isConnected());
      const key = `${from.id} ${message.id}`;
      this.#pending.set(key, { origin: from, id: message.id, waitingFor: new Set(others) });
      for (const worker of others) send(worker, { chatSite: 'changed', id: message.id, origin: from.id });
      this.#settle(key);
    } else if (message.chatSite === 'changed-ack') {
      const key = `${message.origin} ${message.id}`;
      this.#pending.get(key)?.waitingFor.delete(from);
      this.#settle(key);
    } else {
      this.#log.warn({ message }, 'unexpected message from a worker');
    }
  }

  /** A worker exited: nobody waits for it, nor answers it. */
  gone(worker: Worker): void {
    for (const [key, relay] of this.#pending) {
      if (relay.origin === worker) this.#pending.delete(key);
      else if (relay.waitingFor.delete(worker)) this.#settle(key);
    }
  }

  #settle(key: string): void {
    const relay = this.#pending.get(key);
    if (relay === undefined || relay.waitingFor.size > 0) return;
    this.#pending.delete(key);
    send(relay.origin, { chatSite: 'announced', id: relay.id });
  }
}

function send(worker: Worker, message: PeerMessage): void {
  if (worker.isConnected()) worker.send(message);
}
