// Long work in slices: a loop that may run for long gives the page back every SLICE_MS, so that
// a tap is handled between two slices instead of after the whole loop (a sync's page of 2,000
// records, BENCHMARKS.md §14). `scheduler.yield()` where the browser has it (the loop goes on
// before other queued work), else a message to itself (a task of its own, without setTimeout's
// 4 ms clamp for nested timers).

/** How long a slice may run. */
export const SLICE_MS = 8;

/** Lets the page handle input and draw, then resumes. */
export function yieldToPage() {
  const scheduler = /** @type {{yield?: () => Promise<void>} | undefined} */ (/** @type {any} */ (globalThis).scheduler);
  if (scheduler && typeof scheduler.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => { channel.port1.close(); resolve(undefined); };
    channel.port2.postMessage(null);
  });
}

export class TimeSlice {
  /** @param {() => number} [now] */
  constructor(now = () => performance.now()) {
    this.now = now;
    this.started = now();
  }

  /** Yields when the slice has run SLICE_MS; call it between two steps of a long loop. */
  async pass() {
    if (this.now() - this.started < SLICE_MS) return;
    await yieldToPage();
    this.started = this.now();
  }

  /** Yields now, and starts a new slice. */
  async next() {
    await yieldToPage();
    this.started = this.now();
  }
}

/**
 * Runs steps (a generator that yields between two pieces of its work) to their end at once, and
 * returns what they return.
 * @template T
 * @param {Generator<void, T, void>} steps
 * @returns {T}
 */
export function runSteps(steps) {
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

/**
 * Runs steps to their end, giving the page back between two whenever the slice has run SLICE_MS.
 * @template T
 * @param {Generator<void, T, void>} steps @param {TimeSlice} slice
 * @returns {Promise<T>}
 */
export async function runStepsInSlices(steps, slice) {
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    await slice.pass();
  }
}
