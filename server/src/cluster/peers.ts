/**
 * What the workers of one server (cluster/supervisor.ts) tell each other, through the
 * supervisor: that content changed. Each worker keeps its own read cache; the change feed
 * (db/changes.ts) reaches every worker too, but a PostgreSQL notice arrives a moment after the
 * commit, and a client whose next read lands on another worker must not get the old answer. So a
 * write's answer waits until every other worker has marked its cache stale
 * (docs/architecture.md#workers).
 */

/** A message between the supervisor and its workers. */
export type PeerMessage =
  /** worker → supervisor: this worker committed a change (`id` counts its announcements). */
  | { chatSite: 'changed'; id: number }
  /** supervisor → every other worker: `origin` changed content; acknowledge once marked. */
  | { chatSite: 'changed'; id: number; origin: number }
  | { chatSite: 'changed-ack'; id: number; origin: number }
  /** supervisor → the worker that changed content: every other worker knows. */
  | { chatSite: 'announced'; id: number }
  /** worker → supervisor: this worker listens at `address`. */
  | { chatSite: 'listening'; address: string }
  /** supervisor → worker: every worker of the server listens (/readyz waits for it). */
  | { chatSite: 'all-listening' }
  /** worker → supervisor: this worker closed its listening socket; supervisor → worker: noted. */
  | { chatSite: 'closed' }
  | { chatSite: 'closed-ack' }
  /** worker → supervisor: every worker's metrics, added up, for a scrape of /metrics. */
  | { chatSite: 'metrics'; id: number }
  | { chatSite: 'metrics-answer'; id: number; text?: string; error?: string };

/** Set in a worker's environment by a supervisor that sends `all-listening`. */
export const readySignalVariable = 'CHAT_SITE_READY_SIGNAL';

export function isPeerMessage(message: unknown): message is PeerMessage {
  return typeof message === 'object' && message !== null && 'chatSite' in message;
}

export interface Peers {
  /** Tells the other workers that content changed; resolves once they all know. */
  announce(): Promise<void>;
  /** Calls `listener` whenever another worker changed content. */
  onChange(listener: () => void): void;
  /** Every worker's metrics, added up by the supervisor (docs/monitoring.md#metrics). */
  metrics(): Promise<string>;
  /** Whether the supervisor has said that every worker listens (docs/monitoring.md#health-checks). */
  allListening(): boolean;
}

/** Longest a scrape waits for the supervisor to collect every worker's metrics. */
export const metricsTimeoutMs = 5000;

/** A worker that does not answer in this long is not waited for: its change feed still reaches it. */
export const announceTimeoutMs = 1000;

/** This worker's side, over the IPC channel node:cluster opened to the supervisor. */
export function workerPeers(): Peers {
  const send = process.send?.bind(process);
  if (send === undefined) throw new Error('workerPeers() needs an IPC channel to the supervisor');
  const listeners: (() => void)[] = [];
  const waiting = new Map<number, () => void>();
  const scrapes = new Map<number, (answer: { text?: string; error?: string }) => void>();
  let next = 0;
  // A supervisor of an older build never says so: its workers are ready as they were then.
  let allListening = process.env[readySignalVariable] !== '1';
  process.on('message', (message) => {
    if (!isPeerMessage(message)) return;
    if (message.chatSite === 'changed' && 'origin' in message) {
      for (const listener of listeners) listener();
      send({ chatSite: 'changed-ack', id: message.id, origin: message.origin } satisfies PeerMessage);
    } else if (message.chatSite === 'announced') {
      waiting.get(message.id)?.();
    } else if (message.chatSite === 'metrics-answer') {
      scrapes.get(message.id)?.(message);
    } else if (message.chatSite === 'all-listening') {
      allListening = true;
    }
  });
  return {
    announce: () =>
      new Promise<void>((done) => {
        const id = ++next;
        const finish = () => {
          clearTimeout(timer);
          waiting.delete(id);
          done();
        };
        const timer = setTimeout(finish, announceTimeoutMs);
        waiting.set(id, finish);
        send({ chatSite: 'changed', id } satisfies PeerMessage);
      }),
    onChange: (listener) => void listeners.push(listener),
    allListening: () => allListening,
    metrics: () =>
      new Promise<string>((done, fail) => {
        const id = ++next;
        const timer = setTimeout(() => {
          scrapes.delete(id);
          fail(new Error('the supervisor did not collect the workers’ metrics in time'));
        }, metricsTimeoutMs);
        scrapes.set(id, (answer) => {
          clearTimeout(timer);
          scrapes.delete(id);
          if (answer.text !== undefined) done(answer.text);
          else fail(new Error(answer.error ?? 'no metrics'));
        });
        send({ chatSite: 'metrics', id } satisfies PeerMessage);
      }),
  };
}

/**
 * Resolves once the supervisor has seen that this worker closed its listening socket. This matters
 * when the operator chose node:cluster's round-robin (NODE_CLUSTER_SCHED_POLICY=rr): the
 * supervisor then hands each new connection to a worker by message, and one sent before it knew
 * would be lost (the client left hanging) if the worker exited before receiving it. Messages
 * arrive in order, so by the time the answer comes every such connection has arrived and been sent
 * back to the supervisor for another worker. By default the workers accept for themselves, and the
 * answer only costs a message each way.
 */
export function supervisorNoticedClose(timeoutMs = announceTimeoutMs): Promise<void> {
  return new Promise((done) => {
    const finish = () => {
      clearTimeout(timer);
      process.off('message', onMessage);
      done();
    };
    const onMessage = (message: unknown) => {
      if (isPeerMessage(message) && message.chatSite === 'closed-ack') finish();
    };
    const timer = setTimeout(finish, timeoutMs);
    process.on('message', onMessage);
    process.send?.({ chatSite: 'closed' } satisfies PeerMessage);
  });
}
