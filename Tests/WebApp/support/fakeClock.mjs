// Timers on a clock of the test's own: they fire only when the test advances it.
export class FakeClock {
  constructor() {
    this.now = 0;
    /** @type {Map<number, {at: number, run: () => void}>} */
    this.pending = new Map();
    this.nextHandle = 1;
  }

  /** The {set, clear} pair that RetrySchedule takes. */
  timers() {
    return {
      set: (run, ms) => { const h = this.nextHandle++; this.pending.set(h, { at: this.now + ms, run }); return h; },
      clear: (h) => { this.pending.delete(h); },
    };
  }

  /** The wait of the earliest pending timer, or null. */
  nextWait() {
    const ats = [...this.pending.values()].map((t) => t.at);
    return ats.length ? Math.min(...ats) - this.now : null;
  }

  /** Moves the clock on, running every timer that falls due, in order. */
  advance(ms) {
    const end = this.now + ms;
    for (;;) {
      const due = [...this.pending].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.pending.delete(due[0]);
      this.now = due[1].at;
      due[1].run();
    }
    this.now = end;
  }
}
