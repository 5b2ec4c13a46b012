// The ways the ledger refuses a change, each with its cause (`reason`, what the screens choose
// their sentence by: refusals.js) and one English sentence for developers (ledger.js re-exports
// them).

/**
 * The reason codes of Schemas/merge.md §2.1 (Conformance/admission.jsonl): a held event received
 * with other content, one new id with two contents, a seq gap, a time before 2000 or too far
 * ahead, a station edit that is not valid, a completion date in the future, a station the
 * catalogue lacks. (The first step's, `malformed-record`, is api.js's MalformedAnswer.)
 * @typedef {'differing-copy' | 'differing-duplicate' | 'seq-gap' | 'before-2000' | 'clock-ahead' | 'invalid-edit'
 *   | 'future-date' | 'unknown-station'} MergeRefusal
 */
/**
 * A bad station, date, memo or name; a stale draft; no conflict to resolve (conflictSettlement.js).
 * @typedef {'station' | 'date' | 'memo' | 'name' | 'stale' | 'no-conflict'} EditRefusal
 */

/** A received page that must not be stored; `device` and `seq` name the record refused. */
export class MergeError extends Error {
  /**
   * @param {string} message @param {MergeRefusal} reason
   * @param {{device: string, seq: bigint}} record
   */
  constructor(message, reason, record) {
    super(message);
    this.name = 'MergeError';
    this.reason = reason;
    this.device = record.device;
    this.seq = record.seq;
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
