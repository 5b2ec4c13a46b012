// The ways the ledger refuses a change, each with its cause (`reason`, what the screens choose
// their sentence by: refusals.js) and one English sentence for developers (ledger.js re-exports
// them).

/** @typedef {'gap' | 'differs' | 'ahead'} MergeRefusal a seq gap, a held event with other content, a time too far ahead */
/**
 * A bad station, date, memo or name; a stale draft; no conflict to resolve (conflictSettlement.js).
 * @typedef {'station' | 'date' | 'memo' | 'name' | 'stale' | 'no-conflict'} EditRefusal
 */

/** A received page that must not be stored. */
export class MergeError extends Error {
  /** @param {string} message @param {MergeRefusal} reason */
  constructor(message, reason) {
    super(message);
    this.name = 'MergeError';
    this.reason = reason;
  }
}

/** An edit the ledger refuses (bad station or date, memo or name too long). */
export class EditError extends Error {
  /** @param {string} message @param {EditRefusal} reason */
  constructor(message, reason) {
    super(message);
    this.name = 'EditError';
    this.reason = reason;
  }
}

/** An edit made against values the station no longer has (a sync brought another device's edit). */
export class StaleEditError extends EditError {
  /** @param {string} message */
  constructor(message) {
    super(message, 'stale');
    this.name = 'StaleEditError';
  }
}
