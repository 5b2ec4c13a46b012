// When to try a sync again after it could not reach the server: exponential backoff from
// FIRST_RETRY_MS, doubling up to MAX_RETRY_MS, each wait drawn between half and all of its step
// (jitter, so that phones that lost the same server do not all return at once), and at once when
// something suggests the server may be back (the network returned, the app came into view).
// A success ends the backoff; the next failure starts from the first step again; which failures
// are worth a retry is worthRetrying's to say. The timer and the random source are injected, so
// that tests run it on a clock of their own.

import { ApiError } from './api.js';

export const FIRST_RETRY_MS = 5_000;
export const MAX_RETRY_MS = 300_000;

/**
 * The step of the n-th retry (0 = the first after a failure): 5 s, 10 s, 20 s, … capped at 5 min.
 * @param {number} attempt
 */
export function backoffStep(attempt) {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(attempt, 30));
}

/**
 * The wait before the n-th retry: between half and all of its step.
 * @param {number} attempt
 * @param {() => number} random in [0, 1)
 */
export function retryDelay(attempt, random) {
  const step = backoffStep(attempt);
  return Math.round(step / 2 + (step / 2) * random());
}

/**
 * @typedef {object} Timers
 * @property {(run: () => void, ms: number) => unknown} set
 * @property {(handle: unknown) => void} clear
 */

/**
 * setTimeout, except that in node (the tests' App) a waiting retry does not keep the process
 * alive; a browser's timers have no `unref`.
 * @param {() => void} run @param {number} ms
 */
function unrefTimeout(run, ms) {
  const handle = setTimeout(run, ms);
  /** @type {{unref?: () => void}} */ (/** @type {unknown} */ (handle)).unref?.();
  return handle;
}

/** One pending retry at a time, for one action (the app's sync). */
export class RetrySchedule {
  /**
   * @param {() => void} retry what to run when the wait is over
   * @param {{timers?: Timers, random?: () => number}} [options] the browser's timers and
   *   Math.random by default
   */
  constructor(retry, options = {}) {
    this.retry = retry;
    /** @type {Timers} */
    this.timers = options.timers ?? { set: unrefTimeout, clear: (h) => clearTimeout(/** @type {any} */ (h)) };
    this.random = options.random ?? Math.random;
    /** Failures in a row since the last success. */
    this.failures = 0;
    /** @type {unknown} */
    this.handle = null;
    /** The wait of the pending retry (ms), or null. */
    /** @type {number | null} */
    this.pendingDelay = null;
  }

  /** A retry is waiting. */
  get waiting() {
    return this.handle !== null;
  }

  /**
   * The action failed in a way worth retrying: the next try is scheduled; returns its wait.
   */
  failed() {
    this.cancel();
    const delay = retryDelay(this.failures, this.random);
    this.failures++;
    this.pendingDelay = delay;
    this.handle = this.timers.set(() => {
      this.handle = null;
      this.pendingDelay = null;
      this.retry();
    }, delay);
    return delay;
  }

  /** The action succeeded: no retry waits, and the next failure starts from the first step. */
  succeeded() {
    this.cancel();
    this.failures = 0;
  }

  /** The action failed in a way that retrying cannot fix: nothing waits, the count is kept. */
  stop() {
    this.cancel();
  }

  /**
   * Something suggests the server may be reachable again (the network returned, the app came
   * into view): a waiting retry runs now. Returns whether one was waiting.
   */
  now() {
    if (!this.waiting) return false;
    this.cancel();
    this.retry();
    return true;
  }

  /** Drops the waiting retry, if any (the action is about to run anyway). */
  cancel() {
    if (this.handle !== null) this.timers.clear(this.handle);
    this.handle = null;
    this.pendingDelay = null;
  }
}

/**
 * Whether a later try may get past a sync's failure: no network, no server, a server that failed
 * or was busy. Never a refusal (401, 409, 413, 422): trying again would meet it again.
 * @param {import('./sync.js').SyncFailure} failure
 */
export function worthRetrying(failure) {
  if (failure.kind === 'offline' || failure.kind === 'unreachable' || failure.kind === 'damaged') return true;
  const cause = failure.cause;
  return failure.kind === 'server' && cause instanceof ApiError && (cause.status >= 500 || cause.status === 429);
}
