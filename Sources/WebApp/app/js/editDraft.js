// What an editing screen shows against what the station has: the values the screen opened with
// (its base), so that a save writes only the fields the person changed, and so that a change that
// arrives underneath (a sync bringing another device's edit) is taken into the fields the person
// did not touch and flagged in those they did. The rule is Schemas/phone-app.md "Edits write only
// what the person changed".

/** @typedef {{compDate: number, memo: string}} StationValues */
/** @typedef {'compDate' | 'memo'} Field */

/** @type {Field[]} */
const FIELDS = ['compDate', 'memo'];

export class EditDraft {
  /** @param {StationValues} base the station's values as the screen shows them */
  constructor(base) {
    /** @type {StationValues} */
    this.base = { ...base };
  }

  /**
   * The fields whose input differs from what the screen opened with: only these are written.
   * @param {StationValues} inputs
   * @returns {{compDate?: number, memo?: string}}
   */
  changes(inputs) {
    /** @type {{compDate?: number, memo?: string}} */
    const changed = {};
    if (inputs.compDate !== this.base.compDate) changed.compDate = inputs.compDate;
    if (inputs.memo !== this.base.memo) changed.memo = inputs.memo;
    return changed;
  }

  /**
   * The values the person saw for the fields of `changes`: the ledger refuses the edit when the
   * station no longer has them (Ledger.edit's `seen`).
   * @param {{compDate?: number, memo?: string}} changes
   * @returns {{compDate?: number, memo?: string}}
   */
  seen(changes) {
    /** @type {{compDate?: number, memo?: string}} */
    const seen = {};
    if (changes.compDate !== undefined) seen.compDate = this.base.compDate;
    if (changes.memo !== undefined) seen.memo = this.base.memo;
    return seen;
  }

  /**
   * The station's values changed underneath. A field the person has not touched takes the new
   * value (returned in `inputs`, for the screen to show); a field the person changed keeps what
   * they typed and, when its stored value moved, is a conflict: its base stays the old value, so
   * that a save of it is refused until the person has seen the new one (`acknowledge`). A field
   * whose stored value is now what the person typed is settled, neither moved nor a conflict:
   * the person's own edit that the storage refused and the app saved later (unsavedEdits.js),
   * or another device's edit to the same value.
   * @param {StationValues} current
   * @param {StationValues} inputs
   * @returns {{inputs: StationValues, moved: Field[], conflicts: Field[]}}
   */
  rebase(current, inputs) {
    const next = { ...inputs };
    /** @type {Field[]} */
    const moved = [];
    /** @type {Field[]} */
    const conflicts = [];
    /**
     * @template {Field} F
     * @param {F} field
     */
    const take = (field) => {
      if (current[field] === this.base[field]) return;
      if (current[field] === inputs[field]) {
        this.base[field] = current[field];
        return;
      }
      moved.push(field);
      if (inputs[field] === this.base[field]) {
        this.base[field] = current[field];
        next[field] = current[field];
      } else {
        conflicts.push(field);
      }
    };
    for (const field of FIELDS) take(field);
    return { inputs: next, moved, conflicts };
  }

  /**
   * The person has been told of the new values (a refused save said so): from now on the draft's
   * base is the station's current values, and the person's inputs are changes against them.
   * @param {StationValues} current
   */
  acknowledge(current) {
    this.base = { ...current };
  }
}
