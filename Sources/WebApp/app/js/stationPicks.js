// The stations picked in a list for まとめて記録 (a line's stations, search results, 現在地's
// list), each with the date its row showed, which the batch names as the value it is made
// against (batchPlan.js, 'stale'). A list drawn again keeps only the picks it still shows, with
// the dates it shows now: nothing is recorded for a station the person can no longer see.

export class StationPicks {
  constructor() {
    /** @type {Map<number, number>} station → the date its row shows */
    this.shown = new Map();
  }

  /** How many stations are picked. */
  get size() {
    return this.shown.size;
  }

  /** @param {number} station */
  has(station) {
    return this.shown.has(station);
  }

  /**
   * Picks or drops a station.
   * @param {number} station
   * @param {number} shownDate the date its row shows
   * @param {boolean} on
   */
  set(station, shownDate, on) {
    if (on) this.shown.set(station, shownDate); else this.shown.delete(station);
  }

  /** The picked stations, in the order they were picked. */
  stations() {
    return [...this.shown.keys()];
  }

  /** The date each picked station's row showed. */
  seen() {
    return new Map(this.shown);
  }

  /**
   * The list was drawn again: picks it no longer lists are dropped, the others take the date
   * their row shows now.
   * @param {(station: number) => number | undefined} listed the date a listed station's row shows; undefined when not listed
   */
  keepListed(listed) {
    for (const station of [...this.shown.keys()]) {
      const date = listed(station);
      if (date === undefined) this.shown.delete(station); else this.shown.set(station, date);
    }
  }

  clear() {
    this.shown.clear();
  }
}
