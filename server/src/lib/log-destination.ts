/**
 * Where the server's log goes: a file descriptor (standard output), written in batches, off the
 * event loop (docs/monitoring.md#logs). Lines wait until 8 kB are due or 200 ms have passed since
 * the first of them, then go in one write, so a busy server spends one system call on about 40
 * request lines. The 200 ms timer runs only while lines wait: a server at rest wakes for nothing
 * (docs/memory.md#memory-at-rest). pino's own destination (sonic-boom) measured the byte
 * length of its whole pending buffer again for every line, which cost about as much as making
 * the line; this one only keeps the lines in a list.
 * What waits is written synchronously when the process exits (a stop on SIGTERM ends with
 * process.exit, and so does a crash); at most 16 MB waits when the descriptor stops taking
 * lines, past which lines are dropped rather than memory growing.
 */
import { write, writeSync } from 'node:fs';

/** Every destination made, written out by one exit listener (tests build many apps). */
const destinations = new Set<LogDestination>();
let exitListener = false;

export interface LogDestinationOptions {
  batchBytes?: number;
  flushEveryMs?: number;
  maxWaitingBytes?: number;
}

export class LogDestination {
  readonly #fd: number;
  readonly #batchBytes: number;
  readonly #maxWaitingBytes: number;
  #lines: string[] = [];
  /** Characters waiting: bytes for the ASCII that request lines nearly always are. */
  #waiting = 0;
  /** A write is under way: what arrives meanwhile waits for the next one. */
  #writing = false;
  readonly #flushEveryMs: number;
  /** A timer is set to flush `flushEveryMs` after the first line that waits. */
  #timerRunning = false;

  constructor(
    fd: number,
    { batchBytes = 8 * 1024, flushEveryMs = 200, maxWaitingBytes = 16 * 1024 * 1024 }: LogDestinationOptions = {},
  ) {
    this.#fd = fd;
    this.#batchBytes = batchBytes;
    this.#maxWaitingBytes = maxWaitingBytes;
    this.#flushEveryMs = flushEveryMs;
    destinations.add(this);
    if (!exitListener) {
      exitListener = true;
      process.once('exit', () => {
        for (const destination of destinations) destination.flushSync();
      });
    }
  }

  write(line: string): boolean {
    if (this.#waiting + line.length > this.#maxWaitingBytes) return false;
    this.#lines.push(line);
    this.#waiting += line.length;
    if (!this.#writing && this.#waiting >= this.#batchBytes) this.#writeOut();
    else this.#startTimer();
    return true;
  }

  #startTimer(): void {
    if (this.#timerRunning) return;
    this.#timerRunning = true;
    setTimeout(() => {
      this.#timerRunning = false;
      this.flush();
    }, this.#flushEveryMs).unref();
  }

  /** Starts writing what waits, if anything does and no write is under way. */
  flush(): void {
    if (!this.#writing && this.#lines.length > 0) this.#writeOut();
  }

  /** Writes what waits now, blocking: for the moment the process exits. */
  flushSync(): void {
    const bytes = Buffer.from(this.#take());
    for (let offset = 0, tries = 0; offset < bytes.length && tries < 1000;) {
      try {
        offset += writeSync(this.#fd, bytes, offset);
      } catch (error) {
        // A non-blocking pipe that is full: try again; anything else loses the rest.
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return;
        tries += 1;
      }
    }
  }

  #take(): string {
    const text = this.#lines.join('');
    this.#lines = [];
    this.#waiting = 0;
    return text;
  }

  #writeOut(): void {
    this.#writing = true;
    this.#send(Buffer.from(this.#take()), 0);
  }

  #send(bytes: Buffer, offset: number): void {
    write(this.#fd, bytes, offset, bytes.length - offset, null, (error, written) => {
      if (error !== null) {
        // A full non-blocking pipe: try again shortly. Anything else (a closed pipe): the batch
        // is lost, and later lines are still tried.
        if (error.code === 'EAGAIN') setTimeout(() => this.#send(bytes, offset), 20);
        else this.#done();
        return;
      }
      if (offset + written < bytes.length) this.#send(bytes, offset + written);
      else this.#done();
    });
  }

  #done(): void {
    this.#writing = false;
    if (this.#waiting >= this.#batchBytes) this.#writeOut();
    // Lines that came during the write, too few for a batch: the timer may have fired meanwhile.
    else if (this.#lines.length > 0) this.#startTimer();
  }
}
