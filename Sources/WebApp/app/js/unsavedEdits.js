// Edits the person made that the device could not save (storage full, a write that read back
// differently): kept in memory, never dropped, and tried again until the disk takes them
// (Schemas/phone-app.md "Saved means on the disk"). One entry per station: a later edit of the
// same station's field replaces the earlier one, as it would have on the disk.

/** @typedef {{compDate?: number | null, memo?: string | null}} EditFields */

export class UnsavedEdits {
  constructor() {
    /** @type {Map<number, EditFields>} */
    this.byStation = new Map();
  }

  /** @param {number} station @param {EditFields} fields */
  keep(station, fields) {
    const kept = this.byStation.get(station) ?? {};
    const merged = { ...kept };
    if (fields.compDate !== undefined && fields.compDate !== null) merged.compDate = fields.compDate;
    if (fields.memo !== undefined && fields.memo !== null) merged.memo = fields.memo;
    this.byStation.set(station, merged);
  }

  get count() { return this.byStation.size; }

  /** @param {number} station */
  has(station) { return this.byStation.has(station); }

  /**
   * Tries every kept edit once through `save` (in the order they were kept); an edit that is
   * saved now leaves the list, one that fails again stays. Returns how many were saved.
   * @param {(station: number, fields: EditFields) => Promise<void>} save
   */
  async retry(save) {
    let saved = 0;
    for (const [station, fields] of [...this.byStation]) {
      try {
        await save(station, fields);
        this.byStation.delete(station);
        saved++;
      } catch {
        break; // the storage still refuses: later edits would meet the same refusal
      }
    }
    return saved;
  }
}
