/**
 * Gives back, once a server process has been quiet for a while, the memory its last burst of
 * requests left in V8's heap (docs/memory.md#memory-at-rest). V8 keeps what a burst made
 * it commit: the young generation's second semi-space, old-space pages of garbage, bytecode no
 * longer run, and outside the heap the dead Buffers only a collection frees. Nothing reclaims it
 * while no JavaScript allocates, so a worker that served a few thousand reads holds about 45 MB
 * more at rest than it needs. One full collection of V8's "last resort" kind, the one it runs
 * itself before giving up on memory, releases it; it takes 50–200 ms, and the next burst's first
 * second or so is slower, so it runs only after a whole window without work (a minute by
 * default), at most once per window, and only when what V8 holds has grown since the last one.
 */
import { cpuUsage } from 'node:process';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/** Over a window, the share of one CPU above which the process was working, not resting. */
const busyShare = 0.02;
/** Memory held beyond what the last trim left, below which a trim would give back too little. */
export const worthTrimmingBytes = 4 * 1024 * 1024;

export interface Window {
  /** CPU time the process used over the window, in ms (all its threads). */
  cpuMs: number;
  windowMs: number;
  /** What V8 holds now ({@link heldBytes}), and held right after the last trim (0 before the first). */
  heldNowBytes: number;
  floorBytes: number;
}

/** Whether a window ends at rest with memory worth giving back. */
export function shouldTrim({ cpuMs, windowMs, heldNowBytes, floorBytes }: Window): boolean {
  return cpuMs <= windowMs * busyShare && heldNowBytes >= floorBytes + worthTrimmingBytes;
}

/** What V8 held ({@link heldBytes}) before and after a trim, as the log line names them. */
export interface Trimmed {
  heapBefore: number;
  heapAfter: number;
  ms: number;
}

/**
 * V8's collector, as `--expose-gc` offers it, taken from a fresh context so that no module is
 * handed a global `gc`; the flag is turned off again at once.
 */
function collector(): Collect {
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as Collect;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/**
 * V8's heap as committed, and the memory outside it that its objects keep: the Buffers a burst of
 * answers leaves for the next collection to free, which no heap figure shows. One worker at rest
 * after 2,000 reads held 31 MB of them, its heap grown too little to be trimmed, and measured
 * 105.5 MB of RSS against 88.4–92.5 for workers that were trimmed.
 */
export function heldBytes(): number {
  const stats = getHeapStatistics();
  return stats.total_heap_size + stats.external_memory;
}

/**
 * Checks every `windowMs` whether the window just ended was quiet and the heap has grown, and
 * trims then. `windowMs` 0 turns it off. Answers a function that stops the checks; the timer
 * never keeps the process alive.
 */
export function trimWhenIdle(windowMs: number, onTrim: (trimmed: Trimmed) => void): () => void {
  if (windowMs <= 0) return () => {};
  const collect = collector();
  let floorBytes = 0;
  let since = cpuUsage();
  const timer = setInterval(() => {
    const now = cpuUsage();
    const cpuMs = (now.user - since.user + now.system - since.system) / 1000;
    since = now;
    const heldNowBytes = heldBytes();
    if (!shouldTrim({ cpuMs, windowMs, heldNowBytes, floorBytes })) return;
    const started = performance.now();
    // Bytecode is kept: flushed, every function the next burst runs would be compiled and
    // optimised again, and that burst's first seconds served at about half speed.
    setFlagsFromString('--no-flush-bytecode');
    try {
      collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    } finally {
      setFlagsFromString('--flush-bytecode');
    }
    floorBytes = heldBytes();
    // The trim's own work is not the next window's.
    since = cpuUsage();
    onTrim({ heapBefore: heldNowBytes, heapAfter: floorBytes, ms: performance.now() - started });
  }, windowMs);
  timer.unref();
  return () => clearInterval(timer);
}
