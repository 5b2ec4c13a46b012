// A list screen's part in まとめて記録 (a line's stations, search results, 現在地): the stations
// picked in its rows (stationPicks.js), each row's checkbox (pickBox.js), and the bar
// (batchBar.js), told whenever the picks may have changed. The three lists share it so that a
// list drawn again drops the same picks and the bar follows each of them alike.

import { StationPicks } from '../stationPicks.js';
import { pickBox } from './pickBox.js';

/** @typedef {import('./batchBar.js').BatchSource} BatchSource */
/** @typedef {{picked: () => void, changed: () => void}} Bar the まとめて記録 bar */

export class BatchPicking {
  /**
   * @param {Bar} bar
   * @param {() => void} redraw draws the list again (after a batch was recorded, unticked)
   */
  constructor(bar, redraw) {
    this.bar = bar;
    this.picks = new StationPicks();
    /** What the bar records while this list is on screen. @type {BatchSource} */
    this.source = { picks: this.picks, recorded: redraw };
  }

  /**
   * A row's checkbox, ticked while its station is picked.
   * @param {number} station @param {number} shownDate the date the row shows @param {string} name
   */
  box(station, shownDate, name) {
    return pickBox(this.picks, station, shownDate, name, () => this.bar.picked());
  }

  /**
   * The list was drawn again: picks it no longer lists are dropped (StationPicks.keepListed).
   * @param {(station: number) => number | undefined} listed the date a listed station's row shows; undefined when not listed
   */
  listed(listed) {
    this.picks.keepListed(listed);
    this.bar.changed();
  }

  /** The list was emptied: nothing stays picked. */
  emptied() {
    this.picks.clear();
    this.bar.changed();
  }
}
