/**
 * Knows when published content may have changed, so that cached answers can be dropped. Three
 * sources, because content can change from three places:
 * - this process's own writes (the admin API calls `changed()` once they are committed);
 * - other processes on the same PostgreSQL database: triggers (migrations.ts, 0012) send a NOTIFY
 *   for every committed statement that changed rows of the content tables, which a dedicated
 *   connection LISTENs for;
 * - other processes on the same SQLite file (servers, the admin command line): SQLite's
 *   `data_version` moves when another connection commits, and is read before each cached answer.
 * When it cannot know (the LISTEN connection is down), `trustworthy` is false and callers must
 * not serve from cache.
 */
import type pg from 'pg';
import { loadPg, type Db } from './connect.js';

export const changeChannel = 'chat_site_content';

export interface ContentChanges {
  /** A number that moves whenever content may have changed; answers cached under an older one are stale. */
  generation(): number;
  /**
   * Runs `task` where one reading of the generation stands for every request read from the
   * network before it (docs/architecture.md#how-a-request-flows-through-the-server). On SQLite,
   * where a reading costs a statement, tasks wait for the end of the turn's network reads
   * (setImmediate) and share one; on PostgreSQL, where it costs nothing, `task` runs at once.
   */
  afterReads(task: () => void): void;
  /** False while changes made elsewhere could go unnoticed. */
  trustworthy(): boolean;
  /** This process has committed a change. */
  changed(): void;
  /**
   * Settles at the next move of the generation, from any of the three sources. On SQLite a move
   * made elsewhere is only seen when the generation is read, so this is for PostgreSQL's NOTIFY
   * and for this process's own writes: tests wait on it rather than on time.
   */
  nextChange(): Promise<void>;
  close(): Promise<void>;
}

interface Logger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export function watchContentChanges(db: Db, log: Logger): ContentChanges {
  let generation = 0;
  let waiters: (() => void)[] = [];
  const bump = () => {
    generation += 1;
    const settle = waiters;
    waiters = [];
    for (const resolve of settle) resolve();
  };
  const nextChange = () => new Promise<void>((resolve) => waiters.push(resolve));
  if (db.dialect === 'sqlite') {
    const dataVersion = db.sqliteDataVersion;
    let seen = dataVersion?.();
    const read = () => {
      const now = dataVersion?.();
      if (now !== seen) {
        seen = now;
        bump();
      }
      return generation;
    };
    // While the waiting tasks run: the one reading they share. Every request they answer was read
    // from its socket before it was taken, so a commit its client had seen finish is in it.
    let shared: number | undefined;
    let waiting: (() => void)[] = [];
    const runWaiting = () => {
      let tasks = waiting;
      waiting = [];
      shared = read();
      // One task that throws must not leave the others' requests unanswered.
      let failure: { error: unknown } | undefined;
      // A task may add more: the socket's reader answers its requests, then hands the bytes after
      // them to Node's parser, whose requests ask here again. Those bytes came in the same network
      // read, before this reading, so the reading stands for them too, and they are answered in
      // this turn, before the next read, which may hold the client's end, as Node alone would
      // (docs/architecture.md#replays-on-the-socket).
      while (tasks.length > 0) {
        for (const task of tasks) {
          try {
            task();
          } catch (error) {
            failure ??= { error };
          }
        }
        tasks = waiting;
        waiting = [];
      }
      shared = undefined;
      if (failure !== undefined) throw failure.error;
    };
    return {
      generation: () => shared ?? read(),
      afterReads(task) {
        if (waiting.push(task) === 1 && shared === undefined) setImmediate(runWaiting);
      },
      trustworthy: () => dataVersion !== undefined,
      changed() {
        bump();
        if (shared !== undefined) shared = generation;
      },
      nextChange,
      close: async () => {},
    };
  }
  const listener = new ChangeListener(db.postgresUrl ?? '', bump, log);
  return {
    generation: () => generation,
    afterReads: (task) => task(),
    trustworthy: () => listener.listening,
    changed: bump,
    nextChange,
    close: () => listener.close(),
  };
}

/** One connection that LISTENs, and comes back (with growing pauses) when it is lost. */
class ChangeListener {
  listening = false;
  #client: pg.Client | undefined;
  #closed = false;
  #retryMs = 250;
  #timer: NodeJS.Timeout | undefined;
  readonly #url: string;
  readonly #onChange: () => void;
  readonly #log: Logger;

  constructor(url: string, onChange: () => void, log: Logger) {
    this.#url = url;
    this.#onChange = onChange;
    this.#log = log;
    void this.#connect();
  }

  async #connect(): Promise<void> {
    if (this.#closed) return;
    const client = new (loadPg().Client)({ connectionString: this.#url });
    this.#client = client;
    client.on('notification', () => this.#onChange());
    client.on('error', (error) => this.#lost(client, error));
    client.on('end', () => this.#lost(client, undefined));
    try {
      await client.connect();
      await client.query(`LISTEN ${changeChannel}`);
      if (this.#client !== client) return;
      // Whatever changed while nobody was listening is unknown: start from nothing.
      this.#onChange();
      this.listening = true;
      this.#retryMs = 250;
    } catch (error) {
      this.#lost(client, error);
    }
  }

  #lost(client: pg.Client, error: unknown): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    this.listening = false;
    this.#onChange();
    client.removeAllListeners('end');
    client.on('error', () => {});
    void client.end().catch(() => {});
    if (this.#closed) return;
    this.#log.warn(
      { err: error, retryMs: this.#retryMs },
      'lost the database connection that listens for content changes; serving uncached until it is back',
    );
    this.#timer = setTimeout(() => void this.#connect(), this.#retryMs);
    this.#timer.unref();
    this.#retryMs = Math.min(this.#retryMs * 2, 10_000);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    const client = this.#client;
    this.#client = undefined;
    this.listening = false;
    if (client !== undefined) {
      client.removeAllListeners('end');
      client.on('error', () => {});
      await client.end().catch(() => {});
    }
  }
}
