// まとめて記録: the bar above the tab bar while stations are picked in the list on screen (a
// line's stations, search results, 現在地): how many are picked, one date (the fuzzy picker
// without 未乗下車, opened on the date given last, else today) and 「まとめて記録」, which records
// that date for every picked station in one commit (App.recordMany, the rules of
// `complete --batch`). Its sentence stays until the person picks again or leaves the screen.
// The button rests for a moment after the bar appears (ActivationGuard), so that the tap that
// picked a station never records.

import { rememberedDate, todayCode } from '../dates.js';
import { dateRefusalText } from '../refusals.js';
import { formatCount, t } from '../i18n.js';
import { elements } from './dom.js';
import { DatePicker } from './datePicker.js';
import { ActivationGuard } from './activationGuard.js';

/** @typedef {import('../app.js').App} App */
/** @typedef {import('../stationPicks.js').StationPicks} StationPicks */
/**
 * A list whose stations can be picked: its picks, and what to do once they were recorded (draw
 * the list again, unticked).
 * @typedef {{picks: StationPicks, recorded: () => void}} BatchSource
 */

export class BatchBar {
  /** @param {App} app @param {{toast: (message: string) => void}} nav */
  constructor(app, nav) {
    this.app = app;
    this.nav = nav;
    this.el = elements('batch-', ['bar', 'count', 'result', 'clear'], { record: HTMLButtonElement,
      year: HTMLSelectElement, month: HTMLSelectElement, day: HTMLSelectElement });
    this.picker = new DatePicker(this.el.year, this.el.month, this.el.day, () => this.app.now());
    /** @type {BatchSource | null} */
    this.source = null;
    /** Whether the sentence of the last batch is shown. */
    this.answered = false;
    /** How many stations were picked when the bar was last drawn. */
    this.lastPicked = 0;
    this.writing = false;
    this.guard = new ActivationGuard(() => this.enable());
    this.el.record.addEventListener('click', () => void this.recordPicked());
    this.el.clear.addEventListener('click', () => {
      this.source?.picks.clear();
      this.source?.recorded();
    });
  }

  /**
   * The screen shown now and its list, or null for a screen without one.
   * @param {BatchSource | null} source
   */
  attach(source) {
    if (source === this.source) return;
    this.source = source;
    this.answered = false;
    this.el.result.textContent = '';
    // Back to a list with picks: the date chosen for them stays.
    this.lastPicked = source?.picks.size ?? 0;
    this.changed();
  }

  /** The person ticked or unticked a station: the last batch's sentence gives way. */
  picked() {
    this.answered = false;
    this.el.result.textContent = '';
    this.changed();
  }

  /** The picks of the attached list may have changed (a tick, a list drawn again). */
  changed() {
    const picked = this.source?.picks.size ?? 0;
    const visible = picked > 0 || this.answered;
    if (this.lastPicked === 0 && picked > 0) {
      // The first station picked: the date proposed is the one given last, else today.
      const now = this.app.now();
      this.picker.set(rememberedDate(this.app.ledger?.getMeta('lastDate'), now) || todayCode(now));
    }
    this.lastPicked = picked;
    if (visible && this.el.bar.hidden) this.guard.arm(); // appearing: the button rests
    this.el.bar.hidden = !visible;
    document.body.classList.toggle('batching', visible);
    this.el.count.textContent = t('batch.count', formatCount(picked));
    this.enable();
  }

  enable() {
    this.el.record.disabled = this.writing || !this.guard.settled() || (this.source?.picks.size ?? 0) === 0;
  }

  async recordPicked() {
    const source = this.source;
    if (!source || this.writing || !this.guard.settled() || source.picks.size === 0) return;
    const code = this.picker.value();
    const why = dateRefusalText(code, this.app.now());
    if (why) { this.say(why, false); return; }
    this.writing = true;
    this.enable();
    try {
      const answer = await this.app.recordMany(source.picks.stations(), code, source.picks.seen());
      if (answer.ok) source.picks.clear();
      this.say(answer.message, answer.ok);
      if (answer.ok) this.nav.toast(answer.message);
    } finally {
      this.writing = false;
      source.recorded();
      this.changed();
    }
  }

  /** @param {string} message @param {boolean} ok */
  say(message, ok) {
    this.answered = true;
    this.el.result.textContent = message;
    this.el.result.classList.toggle('bad', !ok);
  }
}
