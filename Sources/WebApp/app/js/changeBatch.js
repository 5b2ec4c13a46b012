// The replica's change notices while a sync stores page after page: held and passed on together
// every CHANGE_BATCH_MS instead of after every page, and at the end once more, for every station
// the sync changed (so that a screen that waits for the end, the map, has them all). Each notice redraws the
// map, recounts the statistics and reruns a search; after each of the 50 pages of a first sync of
// 100,000 events, that held every tap on the map for up to 700 ms at 4× CPU throttling
// (BENCHMARKS.md §14). The sync's own counts follow every page anyway (App's `progress`).
// Outside a sync a notice passes at once; so does the person's own edit (`flush`).

/** How often the held notices are passed on during a sync. */
export const CHANGE_BATCH_MS = 2_000;

export class ChangeBatch {
  /**
   * @param {(stations: number[] | null) => void} pass the notice to pass on (null: everything)
   * @param {import('./retrySchedule.js').Timers} [timers] the browser's timers by default
   */
  constructor(pass, timers) {
    this.pass = pass;
    this.timers = timers ?? { set: (run, ms) => setTimeout(run, ms), clear: (h) => clearTimeout(/** @type {any} */ (h)) };
    this.holding = false;
    /** @type {Set<number> | null} the stations held; null: everything */
    this.stations = new Set();
    this.pending = false;
    /** @type {Set<number> | null} every station noticed since `hold`; null: everything */
    this.held = new Set();
    this.heldAny = false;
    /** @type {unknown} */
    this.timer = null;
  }

  /** A sync starts storing pages: notices are held. */
  hold() {
    this.holding = true;
    this.held = new Set();
    this.heldAny = false;
  }

  /** The sync ended: every station noticed since `hold` passes once more, and notices pass at once again. */
  release() {
    this.holding = false;
    if (this.heldAny) {
      this.stations = this.held;
      this.pending = true;
    }
    this.held = new Set();
    this.heldAny = false;
    this.flush();
  }

  /**
   * A change of the replica.
   * @param {number[] | null} stations
   */
  notice(stations) {
    if (!this.holding) {
      this.pass(stations);
      return;
    }
    if (stations === null) this.stations = this.held = null;
    else {
      if (this.stations) for (const s of stations) this.stations.add(s);
      if (this.held) for (const s of stations) this.held.add(s);
    }
    this.pending = this.heldAny = true;
    if (this.timer === null) this.timer = this.timers.set(() => { this.timer = null; this.flush(); }, CHANGE_BATCH_MS);
  }

  /** Passes what is held now. */
  flush() {
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = null;
    if (!this.pending) return;
    const stations = this.stations ? [...this.stations] : null;
    this.stations = new Set();
    this.pending = false;
    this.pass(stations);
  }
}
